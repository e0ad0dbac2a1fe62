package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// The layout of digits.csv.gz (see ../shared/data/sklearn-datasets/README.md):
// no header, one row per image, 64 pixel intensities 0..16 of an 8x8 image in
// row-major order, then the digit 0..9.
const (
	nPixels  = 64
	nClasses = 10
	maxPixel = 16
)

// dataset holds images with pixels scaled to [0, 1] and their labels.
type dataset struct {
	x [][]float64
	y []int
}

// loadDigits reads the digits file at path, gzip-compressed or plain
// (recognised by the gzip magic bytes, so a test can write either).
func loadDigits(path string) (*dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("digits data %s: no such file; give its path with --data PATH or the BOA_DIGITS environment variable (it is digits.csv.gz from ../shared/data/sklearn-datasets)", path)
		}
		return nil, fmt.Errorf("digits data: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("digits data %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	d, err := parseDigits(r)
	if err != nil {
		return nil, fmt.Errorf("digits data %s: %w", path, err)
	}
	return d, nil
}

// parseDigits reads rows of 64 pixels and a label. Blank lines are skipped;
// anything else that is not a well-formed row is an error naming its line
// and column (1-based), so a truncated or wrong file is caught before any
// training.
func parseDigits(r io.Reader) (*dataset, error) {
	d := &dataset{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		f := strings.Split(s, ",")
		if len(f) != nPixels+1 {
			return nil, fmt.Errorf("line %d: want %d comma-separated values (%d pixels, then the label), got %d",
				line, nPixels+1, nPixels, len(f))
		}
		x := make([]float64, nPixels)
		for i, v := range f[:nPixels] {
			p, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return nil, fmt.Errorf("line %d, column %d: pixel %q is not a number", line, i+1, v)
			}
			if !(p >= 0 && p <= maxPixel) { // also rejects NaN
				return nil, fmt.Errorf("line %d, column %d: pixel %s is outside 0..%d", line, i+1, v, maxPixel)
			}
			x[i] = p / maxPixel
		}
		lv := strings.TrimSpace(f[nPixels])
		y, err := strconv.Atoi(lv)
		if err != nil || y < 0 || y >= nClasses {
			return nil, fmt.Errorf("line %d, column %d: label %q is not a digit 0..%d", line, nPixels+1, lv, nClasses-1)
		}
		d.x = append(d.x, x)
		d.y = append(d.y, y)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("after line %d: %w", line, err)
	}
	if len(d.y) == 0 {
		return nil, errors.New("no rows: the file is empty")
	}
	return d, nil
}

// splitSeed fixes the train/validation split, independent of --seed, so
// that every trial of a study is scored on the same validation images and
// the objective differs between trials only through the hyper-parameters.
const splitSeed = 0x5eed_d161

// stratifiedSplit returns the row indices of a split in which every class
// has round(valFrac·n_c) of its n_c rows in validation and the rest in
// training; stratifying keeps the class balance of both parts equal to the
// whole, which a plain random split of 1797 rows does only roughly.
func stratifiedSplit(y []int, valFrac float64, rng *rand.Rand) (train, val []int, err error) {
	var byClass [nClasses][]int
	for i, c := range y {
		byClass[c] = append(byClass[c], i)
	}
	for _, rows := range byClass {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		nVal := int(math.Round(valFrac * float64(len(rows))))
		val = append(val, rows[:nVal]...)
		train = append(train, rows[nVal:]...)
	}
	if len(train) == 0 || len(val) == 0 {
		return nil, nil, fmt.Errorf("%d rows are too few for a %.0f%%/%.0f%% train/validation split",
			len(y), 100*(1-valFrac), 100*valFrac)
	}
	return train, val, nil
}
