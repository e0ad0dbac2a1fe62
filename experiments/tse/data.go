package tse

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// DefaultDigits is where sklearn's digits file lies relative to this
// package's directory (the tests run there); from the repository root it
// is ../shared/data/sklearn-datasets/digits.csv.gz. EnvDigits overrides it.
// The data is third-party and read in place, never copied into the
// repository.
const (
	DefaultDigits = "../../../shared/data/sklearn-datasets/digits.csv.gz"
	EnvDigits     = "BOA_DIGITS"
)

// Pixels and Classes are the shape of the digits data: 8×8 images with
// grey levels 0..16 and the ten digits.
const (
	Pixels  = 64
	Classes = 10
)

// Data is a labelled set: row i is X[i*Pixels:(i+1)*Pixels], scaled to
// [0, 1], with label Y[i] in 0..Classes−1.
type Data struct {
	X []float64
	Y []int
}

// Len is the number of rows.
func (d *Data) Len() int { return len(d.Y) }

// DigitsPath is the digits file to read: $BOA_DIGITS, else DefaultDigits.
func DigitsPath() string {
	if p := os.Getenv(EnvDigits); p != "" {
		return p
	}
	return DefaultDigits
}

// LoadDigits reads sklearn's digits.csv.gz (no header; 64 pixel values
// 0..16, then the label) and scales the pixels to [0, 1] by dividing by 16,
// so that the input layer's He initialisation sees inputs of unit order.
func LoadDigits(path string) (Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return Data{}, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return Data{}, fmt.Errorf("%s: %w", path, err)
	}
	var d Data
	sc := bufio.NewScanner(zr)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		fields := strings.Split(s, ",")
		if len(fields) != Pixels+1 {
			return Data{}, fmt.Errorf("%s:%d: %d fields, want %d", path, line, len(fields), Pixels+1)
		}
		for _, v := range fields[:Pixels] {
			p, err := strconv.ParseFloat(v, 64)
			if err != nil || p < 0 || p > 16 {
				return Data{}, fmt.Errorf("%s:%d: pixel %q, want 0..16", path, line, v)
			}
			d.X = append(d.X, p/16)
		}
		y, err := strconv.Atoi(fields[Pixels])
		if err != nil || y < 0 || y >= Classes {
			return Data{}, fmt.Errorf("%s:%d: label %q, want 0..9", path, line, fields[Pixels])
		}
		d.Y = append(d.Y, y)
	}
	if err := sc.Err(); err != nil {
		return Data{}, fmt.Errorf("%s: %w", path, err)
	}
	if d.Len() == 0 {
		return Data{}, fmt.Errorf("%s: no rows", path)
	}
	return d, nil
}

// Split is the fixed train / validation / test partition of one data set.
type Split struct{ Train, Val, Test Data }

// SplitSeed fixes the partition used by the experiment.
const SplitSeed = 20210604

// StratifiedSplit partitions d class by class: each class's rows are
// shuffled with a PCG source seeded by seed, and its first round(ftrain·n)
// go to training, the next round(fval·n) to validation and the rest to
// test, so every part keeps the class proportions. Rows keep their file
// order within a part.
func StratifiedSplit(d Data, seed uint64, ftrain, fval float64) Split {
	r := rand.New(rand.NewPCG(seed, 0x5b117))
	byClass := make([][]int, Classes)
	for i, y := range d.Y {
		byClass[y] = append(byClass[y], i)
	}
	part := make([]int, d.Len()) // 0 train, 1 validation, 2 test
	for _, idx := range byClass {
		r.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		ntr := int(ftrain*float64(len(idx)) + 0.5)
		nva := int(fval*float64(len(idx)) + 0.5)
		for k, i := range idx {
			switch {
			case k < ntr:
				part[i] = 0
			case k < ntr+nva:
				part[i] = 1
			default:
				part[i] = 2
			}
		}
	}
	var sp Split
	dst := [3]*Data{&sp.Train, &sp.Val, &sp.Test}
	for i, p := range part {
		dst[p].X = append(dst[p].X, d.X[i*Pixels:(i+1)*Pixels]...)
		dst[p].Y = append(dst[p].Y, d.Y[i])
	}
	return sp
}
