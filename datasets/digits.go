// Package datasets reads the third-party data the experiments and the
// stand-in victims use, in place from ../shared/data beside the
// repository, never copied into it: scikit-learn's 8×8 digits.
package datasets

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// EnvDigits names the environment variable that gives the path of
// sklearn's digits.csv.gz, overriding DigitsPath's default.
const EnvDigits = "BOA_DIGITS"

// The shape of the digits: 8×8 images of grey levels 0..16, ten classes.
const (
	DigitsSide    = 8
	DigitsPixels  = DigitsSide * DigitsSide
	DigitsClasses = 10
	digitsMax     = 16
	digitsRel     = "../shared/data/sklearn-datasets/digits.csv.gz"
)

// DigitsPath is the digits file to read: $BOA_DIGITS, else
// ../shared/data/sklearn-datasets/digits.csv.gz from the module root (the
// first directory at or above the working directory holding go.mod), else
// that path from the working directory.
func DigitsPath() string {
	if p := os.Getenv(EnvDigits); p != "" {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return digitsRel
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, digitsRel)
		}
		if filepath.Dir(dir) == dir {
			return filepath.Join(wd, digitsRel)
		}
	}
}

// LoadDigits reads digits.csv.gz: no header, one image a line, 64 grey
// levels 0..16 row by row, then the digit. Row i of the result is
// x[i·64:(i+1)·64], scaled by 1/16 into [0, 1], with label y[i].
func LoadDigits(path string) (x []float64, y []int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("digits data: %w (set %s to the path of digits.csv.gz, from ../shared/data/sklearn-datasets beside the repository)", err, EnvDigits)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("digits data %s: %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		fields := strings.Split(s, ",")
		if len(fields) != DigitsPixels+1 {
			return nil, nil, fmt.Errorf("digits data %s:%d: %d fields, want %d", path, line, len(fields), DigitsPixels+1)
		}
		for _, v := range fields[:DigitsPixels] {
			p, err := strconv.ParseFloat(v, 64)
			if err != nil || p < 0 || p > digitsMax {
				return nil, nil, fmt.Errorf("digits data %s:%d: pixel %q, want 0..16", path, line, v)
			}
			x = append(x, p/digitsMax)
		}
		c, err := strconv.Atoi(fields[DigitsPixels])
		if err != nil || c < 0 || c >= DigitsClasses {
			return nil, nil, fmt.Errorf("digits data %s:%d: label %q, want 0..9", path, line, fields[DigitsPixels])
		}
		y = append(y, c)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("digits data %s: %w", path, err)
	}
	if len(y) == 0 {
		return nil, nil, fmt.Errorf("digits data %s: no rows", path)
	}
	return x, y, nil
}
