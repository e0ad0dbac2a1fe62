//go:build openblas

package gp

// Built with -tags openblas (and cgo), boa's linear algebra runs on
// OpenBLAS through gonum's netlib binding instead of gonum's pure-Go BLAS
// (spec gp-and-acquisitions §1.2): the Cholesky factorisations and
// inverses of the hyper-parameter fits, which dominate a suggestion beyond
// a few hundred observations, get several times faster
// (docs/performance.md). Results differ from the pure-Go build in the
// last bits. Needs libopenblas (Debian: libopenblas-dev).

/*
#cgo LDFLAGS: -lopenblas
void openblas_set_num_threads(int);
*/
import "C"

import (
	"os"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() {
	// One OpenBLAS thread unless the user says otherwise: the fits already
	// run their restarts on all cores, and OpenBLAS's own threads competing
	// with them made a suggestion at n = 100 3.6× slower than pure Go.
	if os.Getenv("OPENBLAS_NUM_THREADS") == "" {
		C.openblas_set_num_threads(1)
	}
	blas64.Use(netlib.Implementation{})
}
