package dashboard

import (
	"embed"
	"io/fs"
)

//go:embed assets
var embedded embed.FS

// Assets is the dashboard's files: index.html at the root, the page's
// script and style, and vendor/ (the chart library and its licence).
var Assets fs.FS = mustSub(embedded, "assets")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the directory is embedded above: cannot happen
	}
	return sub
}
