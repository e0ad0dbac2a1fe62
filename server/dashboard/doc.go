// Package dashboard holds the web dashboard's assets: plain HTML, CSS and
// JavaScript, and the chart library, Apache ECharts (assets/vendor: its
// built bundle as npm ships it, with its licence; vendor.sh re-fetches it
// at the pinned version). They are embedded in the boa binary with
// go:embed, so the dashboard needs no network and no CDN. The server
// (package server) serves them at / and answers the JSON they read under
// /api/v1/ (docs/dashboard.md).
package dashboard
