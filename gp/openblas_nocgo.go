//go:build openblas && !cgo

package gp

// The OpenBLAS build needs cgo. Without it (CGO_ENABLED=0, or no C
// compiler on the PATH) Go would leave out openblas.go and quietly build
// pure Go; this undefined name stops the build instead.
var _ = openblasBuildNeedsCgo_setCGO_ENABLED1_andInstallGcc
