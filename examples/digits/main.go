// Command digits is a real objective for boa: it trains a one-hidden-layer
// perceptron on the UCI optical digits (8x8 images, 10 classes; the copy
// bundled with scikit-learn) by mini-batch SGD with momentum and reports the
// validation error with the trial result protocol of DESIGN.md §2.3:
//
//	BOA_REPORT <epoch> <validation error>   after every epoch
//	BOA_METRIC train_error <x>
//	BOA_METRIC params <number of weights>
//	BOA_RESULT <validation error>
//
// The 70/30 train/validation split is stratified and fixed (it does not
// depend on --seed), so all trials of a study are scored on the same
// images; --seed only sets the initial weights and the batch order.
//
// Usage, from the repository root:
//
//	go run ./examples/digits --lr 0.05 --hidden 32 --activation relu
//	boa run examples/digits/digits.yaml
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
)

// defaultData is relative to the repository root, where boa runs the study.
const defaultData = "../shared/data/sklearn-datasets/digits.csv.gz"

// valFraction is the share of every class held out for validation.
const valFraction = 0.3

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main with its arguments and streams passed in, for the tests. It
// returns the exit status: 0 on success, 1 when the data cannot be read or
// training diverges, 2 for bad flags.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("digits", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dataDefault := defaultData
	if env := os.Getenv("BOA_DIGITS"); env != "" {
		dataDefault = env
	}
	data := fl.String("data", dataDefault, "path of digits.csv.gz (default from $BOA_DIGITS if set)")
	h := hyper{}
	fl.Float64Var(&h.lr, "lr", 0.05, "learning rate (> 0)")
	fl.Float64Var(&h.l2, "l2", 1e-4, "weight decay on the weights, not the biases (>= 0)")
	fl.Float64Var(&h.momentum, "momentum", 0.9, "momentum coefficient in [0, 1)")
	fl.IntVar(&h.hidden, "hidden", 32, "hidden units (>= 1)")
	fl.IntVar(&h.epochs, "epochs", 20, "passes over the training set (>= 1)")
	fl.IntVar(&h.batch, "batch", 32, "mini-batch size (>= 1)")
	fl.StringVar(&h.activation, "activation", "relu", "hidden activation: relu or tanh")
	fl.Uint64Var(&h.seed, "seed", 1, "seed of the initial weights and the batch order")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "digits: unexpected argument %q (all options are flags, see -h)\n", fl.Arg(0))
		return 2
	}
	if err := h.validate(); err != nil {
		fmt.Fprintf(stderr, "digits: %v\n", err)
		return 2
	}

	d, err := loadDigits(*data)
	if err != nil {
		fmt.Fprintf(stderr, "digits: %v\n", err)
		return 1
	}
	trainIdx, valIdx, err := stratifiedSplit(d.y, valFraction, rand.New(rand.NewPCG(splitSeed, 0)))
	if err != nil {
		fmt.Fprintf(stderr, "digits: %v\n", err)
		return 1
	}
	res, err := train(h, d, trainIdx, valIdx, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "digits: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "BOA_METRIC train_error %s\n", fmtFloat(res.trainError))
	fmt.Fprintf(stdout, "BOA_METRIC params %d\n", res.params)
	fmt.Fprintf(stdout, "BOA_RESULT %s\n", fmtFloat(res.valError))
	return 0
}

// validate rejects hyper-parameters that cannot train, naming the flag.
func (h hyper) validate() error {
	var errs []string
	if !(h.lr > 0) || math.IsInf(h.lr, 0) {
		errs = append(errs, fmt.Sprintf("--lr must be a positive number, got %g", h.lr))
	}
	if !(h.l2 >= 0) || math.IsInf(h.l2, 0) {
		errs = append(errs, fmt.Sprintf("--l2 must be 0 or a positive number, got %g", h.l2))
	}
	if !(h.momentum >= 0 && h.momentum < 1) {
		errs = append(errs, fmt.Sprintf("--momentum must be in [0, 1), got %g", h.momentum))
	}
	if h.hidden < 1 {
		errs = append(errs, fmt.Sprintf("--hidden must be at least 1, got %d", h.hidden))
	}
	if h.epochs < 1 {
		errs = append(errs, fmt.Sprintf("--epochs must be at least 1, got %d", h.epochs))
	}
	if h.batch < 1 {
		errs = append(errs, fmt.Sprintf("--batch must be at least 1, got %d", h.batch))
	}
	if !slices.Contains([]string{"relu", "tanh"}, h.activation) {
		errs = append(errs, fmt.Sprintf("--activation must be relu or tanh, got %q", h.activation))
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}
