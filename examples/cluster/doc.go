// Package cluster holds no code: its folder has example files that start
// boa on Kubernetes, Slurm and systemd (README.md), and its tests run
// the very commands those files hold against a real boa server.
package cluster
