//go:build openblas

package gp

import (
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func TestOpenBLASInUse(t *testing.T) {
	if _, ok := blas64.Implementation().(netlib.Implementation); !ok {
		t.Fatalf("built with -tags openblas, but blas64 uses %T", blas64.Implementation())
	}
}
