package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/boaopt/boa/attack"
	"github.com/boaopt/boa/attack/grabnel"
	"github.com/boaopt/boa/attack/image"
	"github.com/boaopt/boa/attack/victim"
)

func attackCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "attack",
		Short: "Test a classifier's robustness with a black-box adversarial attack by BO (docs/attacks.md)",
		Long: `Attack a classifier you give as a command, with class scores only and a
budget of queries: the BayesOpt attack on images (Ru et al., ICLR 2020)
and GRABNEL on graphs (Wan et al., NeurIPS 2021); docs/attacks.md. The command is started once and speaks
JSON lines: boa writes {"shape":[H,W,C],"pixels":[...]} (an image, values in
[0, 1]) or {"nodes":N,"edges":[[u,v],...]} (a graph) on its stdin, and it
answers each line with {"scores":[...]} on its stdout.`,
	}
	cmd.AddCommand(attackImageCmd(), attackGraphCmd())
	return cmd
}

// attackFlags are the flags both attacks share.
type attackFlags struct {
	target  int
	budget  int
	seed    uint64
	timeout time.Duration
	out     string
	queries string
	asJSON  bool
}

func (f *attackFlags) register(cmd *cobra.Command, out string) {
	fl := cmd.Flags()
	fl.SetInterspersed(false) // everything after -- belongs to the victim's command
	fl.IntVar(&f.target, "target", attack.Untargeted, "the class to reach; untargeted: any class but the clean input's")
	fl.Lookup("target").DefValue = "untargeted"
	fl.Uint64Var(&f.seed, "seed", 1, "random seed: the same seed and victim give the same attack")
	fl.DurationVar(&f.timeout, "timeout", time.Minute, "a victim that takes longer to answer one query is stopped")
	fl.StringVar(&f.out, "out", out, "where to write the adversarial input (the best one so far if the attack fails)")
	fl.StringVar(&f.queries, "queries", "", "append every query's loss, success and scores to this file, one JSON line each")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
}

func victimArgs(args []string, use string) error {
	if len(args) == 0 {
		return fmt.Errorf("no victim: give its command after --, e.g. boa attack %s -- python3 victim.py", use)
	}
	return nil
}

func attackImageCmd() *cobra.Command {
	var (
		f          attackFlags
		file       string
		cfg        image.Config
		methodHelp = strings.Join(image.Methods(), ", ")
	)
	cmd := &cobra.Command{
		Use:   "image --image FILE [flags] -- CMD ARGS...",
		Short: "Attack an image classifier: a perturbation within an L∞ ball, found by BO",
		Long: `Find x_adv = clip(x + g(δ), 0, 1), ‖δ‖∞ ≤ --delta, that the victim classifies as
--target (or as anything but the clean image's class), with at most --budget
queries. δ has --side × --side × C values, decoded to the image's size by
bilinear up-sampling; the methods are those of the BayesOpt attack (Ru et
al., ICLR 2020; docs/attacks.md):
gpbo (GP-BO), addgp (additive GP-BO with learnt decompositions), addgp-fd
(decompositions by pixel change), auto-dr (GP-BO that picks the side by
marginal likelihood) and genattack (a genetic baseline).

The image is a PNG (grey: one channel; colour: three) or the protocol's JSON.
One query on the clean image finds its class; it is not counted in the
budget. The adversarial image is written as a 16-bit PNG (or JSON, for an
--out ending in .json).`,
		Example: "  boa attack image --image digit.png --target 3 --budget 200 --out adv.png -- python3 examples/attack/victim.py",
		Args:    func(cmd *cobra.Command, args []string) error { return victimArgs(args, "image --image digit.png") },
		RunE: func(cmd *cobra.Command, args []string) error {
			origin, err := attack.ReadImage(file)
			if err != nil {
				return err
			}
			v, err := victim.StartImage(args, victim.Options{Timeout: f.timeout, Stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			defer v.Close()
			run, err := startAttack[attack.Image](cmd, v, origin, f, f.budget)
			if err != nil {
				return err
			}
			cfg.Budget, cfg.Seed, cfg.Progress = f.budget, f.seed, run.progress
			res, runErr := image.Run(v, origin, run.goal, cfg)
			run.end()
			if res.Queries > 0 {
				if err := writeFile(f.out, func(w io.Writer) error { return writeImage(w, f.out, res.Input) }); err != nil {
					return errors.Join(runErr, err)
				}
			}
			summary := attackSummary{Method: methodOr(cfg.Method, "gpbo"), Origin: run.goal.Origin, CleanScore: run.clean, Target: f.target,
				Success: res.Success, Queries: res.Queries, Budget: budgetOr(cfg.Budget, 1000), Loss: res.Loss, Out: f.out,
				Linf: &res.Linf, L2: &res.L2, Side: res.Side, Sides: res.Sides}
			return finishAttack(cmd.OutOrStdout(), summary, f.asJSON, res.Queries, runErr)
		},
	}
	f.register(cmd, "adversarial.png")
	fl := cmd.Flags()
	fl.StringVar(&file, "image", "", "the image to attack: a PNG, or JSON {\"shape\": [H, W, C], \"pixels\": [...]} (required)")
	fl.StringVar(&cfg.Method, "method", "gpbo", "one of "+methodHelp)
	fl.IntVar(&f.budget, "budget", 1000, "queries at most (the clean image's is not counted)")
	fl.Float64Var(&cfg.Delta, "delta", 0.3, "δ_max, the largest change of any pixel value (values are in [0, 1])")
	fl.IntVar(&cfg.Side, "side", 0, "side of the perturbation searched, d_r = side × side × channels (0: half the image's side)")
	fl.IntVar(&cfg.Groups, "groups", 0, "addgp, addgp-fd: number of groups of the additive model (0: min(12, ⌈d_r/4⌉))")
	fl.IntVar(&cfg.Candidates, "candidates", 0, "random candidates per acquisition maximisation (0: 10,000; 5,000 per group for addgp)")
	_ = cmd.MarkFlagRequired("image")
	return cmd
}

func attackGraphCmd() *cobra.Command {
	var (
		f    attackFlags
		file string
		cfg  grabnel.Config
	)
	cmd := &cobra.Command{
		Use:   "graph --graph FILE [flags] -- CMD ARGS...",
		Short: "Attack a graph classifier by flipping edges (GRABNEL)",
		Long: `Find a graph within --delta edge flips of the given one that the victim
classifies as --target (or as anything but the clean graph's class), with
at most --budget queries: GRABNEL (Wan et al., NeurIPS 2021; docs/attacks.md), which
flips one edge per stage, chosen by a Bayesian linear model on the graphs'
Weisfeiler–Lehman features; random and genetic are the baselines.

The graph is an edge list, one "u v" per line (nodes from 0), with an
optional "# nodes N" line; the adversarial graph is written in that form.
One query on the clean graph finds its class; it is not counted.`,
		Example: "  boa attack graph --graph g.txt --out adv.txt -- python3 gcn_victim.py",
		Args:    func(cmd *cobra.Command, args []string) error { return victimArgs(args, "graph --graph g.txt") },
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := os.Open(file)
			if err != nil {
				return err
			}
			origin, err := attack.ReadGraph(r)
			r.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			v, err := victim.StartGraph(args, victim.Options{Timeout: f.timeout, Stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			defer v.Close()
			budget := f.budget
			if budget == 0 {
				budget = -1 // not known until Run chooses it: a spinner
			}
			run, err := startAttack[attack.Graph](cmd, v, origin, f, budget)
			if err != nil {
				return err
			}
			cfg.Budget, cfg.Seed, cfg.Progress = f.budget, f.seed, run.progress
			res, runErr := grabnel.Run(v, origin, run.goal, cfg)
			run.end()
			if res.Queries > 0 {
				if err := writeFile(f.out, func(w io.Writer) error { return attack.WriteGraph(w, res.Input) }); err != nil {
					return errors.Join(runErr, err)
				}
			}
			flips := res.Flips
			summary := attackSummary{Method: methodOr(cfg.Method, "grabnel"), Origin: run.goal.Origin, CleanScore: run.clean, Target: f.target,
				Success: res.Success, Queries: res.Queries, Budget: res.Budget, Loss: res.Loss, Out: f.out,
				Delta: res.Delta, Flips: &flips}
			return finishAttack(cmd.OutOrStdout(), summary, f.asJSON, res.Queries, runErr)
		},
	}
	f.register(cmd, "adversarial.txt")
	fl := cmd.Flags()
	fl.StringVar(&file, "graph", "", "the graph to attack: an edge list, \"u v\" per line (required)")
	fl.StringVar(&cfg.Method, "method", "grabnel", "one of "+strings.Join(grabnel.Methods(), ", "))
	fl.IntVar(&f.budget, "budget", 0, "queries at most (0: 50 per allowed flip, at most 20,000)")
	fl.IntVar(&cfg.Delta, "delta", 0, "edge flips at most (0: round(0.03·N²), fewer if --budget allows fewer than 50 queries per flip)")
	fl.BoolVar(&cfg.TwoHop, "two-hop", false, "only add edges between nodes at most 2 hops apart")
	_ = cmd.MarkFlagRequired("graph")
	return cmd
}

// attackRun is what both attacks keep around their method: the goal
// found from the clean input, the query log and the progress display.
type attackRun struct {
	goal  attack.Goal
	clean float64 // the victim's score of the clean input's class
	log   *queryLog
	show  func(attack.Query, float64)
}

// startAttack asks the victim about the clean input x and opens the query
// log and the progress display (budget < 0: a spinner).
func startAttack[T any](cmd *cobra.Command, v attack.Victim[T], x T, f attackFlags, budget int) (*attackRun, error) {
	goal, clean, err := cleanGoal(v, x, f.target)
	if err != nil {
		return nil, err
	}
	log, err := openQueryLog(f.queries)
	if err != nil {
		return nil, err
	}
	return &attackRun{goal: goal, clean: clean, log: log, show: attackProgress(cmd.ErrOrStderr(), budget, f.asJSON)}, nil
}

// progress is the attack's Config.Progress: each query logged and shown.
func (r *attackRun) progress(q attack.Query, best float64) { r.log.write(q); r.show(q, best) }

// end clears the progress display and closes the log.
func (r *attackRun) end() {
	r.show(attack.Query{}, math.NaN())
	r.log.close()
}

// cleanGoal asks the victim once about the clean input: its class is the
// goal's origin, and a target equal to it is an error.
func cleanGoal[T any](v attack.Victim[T], x T, target int) (attack.Goal, float64, error) {
	p, err := v.Scores(x)
	if err != nil {
		return attack.Goal{}, 0, fmt.Errorf("the clean input: %w", err)
	}
	if len(p) < 2 {
		return attack.Goal{}, 0, fmt.Errorf("the clean input: the victim gave %d scores, a classifier needs at least 2", len(p))
	}
	top := attack.Class(p)
	switch {
	case target >= len(p) || target < attack.Untargeted:
		return attack.Goal{}, 0, fmt.Errorf("--target %d: the victim has classes 0..%d", target, len(p)-1)
	case target == top:
		return attack.Goal{}, 0, fmt.Errorf("--target %d: the victim already gives the clean input class %d (score %.3g); choose another target", target, top, p[top])
	}
	return attack.Goal{Origin: top, Target: target}, p[top], nil
}

// attackProgress shows the attack's queries: a bar with the best loss on
// a terminal, else a line whenever the best loss improves (nothing with
// --json). A call with a NaN best ends it.
func attackProgress(w io.Writer, budget int, quiet bool) func(attack.Query, float64) {
	file, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(file.Fd())) {
		last := math.Inf(-1)
		return func(q attack.Query, best float64) {
			if quiet || math.IsNaN(best) || (best <= last && !q.Success) {
				return
			}
			last = best
			fmt.Fprintf(w, "query %d  loss %.4g  best %.4g%s\n", q.N, q.Loss, best, map[bool]string{true: "  SUCCESS"}[q.Success])
		}
	}
	bar := progressbar.NewOptions(budget,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("queries"),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
	)
	return func(q attack.Query, best float64) {
		if math.IsNaN(best) {
			_ = bar.Clear()
			return
		}
		bar.Describe(fmt.Sprintf("margin %.4g", best))
		_ = bar.Add(1)
	}
}

// queryLog appends one JSON line per query to a file, each written at
// once, so a victim that crashes loses none of them.
type queryLog struct{ f *os.File }

func openQueryLog(path string) (*queryLog, error) {
	if path == "" {
		return &queryLog{}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	return &queryLog{f}, nil
}

func (l *queryLog) write(q attack.Query) {
	if l.f == nil {
		return
	}
	b, _ := json.Marshal(map[string]any{"query": q.N, "loss": q.Loss, "success": q.Success, "scores": q.Scores})
	_, _ = l.f.Write(append(b, '\n'))
}

func (l *queryLog) close() {
	if l.f != nil {
		l.f.Close()
	}
}

func writeImage(w io.Writer, path string, m attack.Image) error {
	if strings.HasSuffix(strings.ToLower(path), ".json") {
		return json.NewEncoder(w).Encode(m.JSON())
	}
	return attack.WritePNG(w, m)
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// attackSummary is what boa attack prints, as text or JSON.
type attackSummary struct {
	Method     string    `json:"method"`
	Origin     int       `json:"origin"`      // the clean input's class
	CleanScore float64   `json:"clean_score"` // its score
	Target     int       `json:"target"`      // -1: untargeted
	Success    bool      `json:"success"`
	Queries    int       `json:"queries"`
	Budget     int       `json:"budget"`
	Loss       float64   `json:"loss"` // the best y: > 0 at success for images
	Out        string    `json:"out,omitempty"`
	Error      string    `json:"error,omitempty"`
	Linf       *float64  `json:"linf,omitempty"` // images
	L2         *float64  `json:"l2,omitempty"`
	Side       int       `json:"side,omitempty"`
	Sides      []int     `json:"sides,omitempty"`
	Delta      int       `json:"delta,omitempty"` // graphs: the flips allowed
	Flips      *[][2]int `json:"flips,omitempty"` // and those made
}

func methodOr(m, def string) string {
	if m == "" {
		return def
	}
	return m
}

func budgetOr(b, def int) int {
	if b == 0 {
		return def
	}
	return b
}

// finishAttack prints the summary, and, when the victim failed, returns
// its error after saying what was kept.
func finishAttack(stdout io.Writer, s attackSummary, asJSON bool, queries int, runErr error) error {
	if queries == 0 {
		s.Out = "" // nothing was written
	}
	if runErr != nil {
		s.Error = runErr.Error()
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(s); err != nil {
			return err
		}
	} else {
		goal := "any class but " + fmt.Sprint(s.Origin)
		if s.Target != attack.Untargeted {
			goal = fmt.Sprintf("class %d", s.Target)
		}
		fmt.Fprintf(stdout, "victim: class %d on the clean input (score %.3g); goal: %s; method %s\n", s.Origin, s.CleanScore, goal, s.Method)
		verdict := "FAILED"
		if s.Success {
			verdict = "SUCCESS"
		}
		fmt.Fprintf(stdout, "%s after %d of %d queries, best loss %.4g\n", verdict, s.Queries, s.Budget, s.Loss)
		if s.Linf != nil {
			fmt.Fprintf(stdout, "L∞ distance %.4g, L2 distance %.4g, perturbation side %d\n", *s.Linf, *s.L2, s.Side)
		}
		if s.Flips != nil {
			fmt.Fprintf(stdout, "%d of %d edge flips: %v\n", len(*s.Flips), s.Delta, *s.Flips)
		}
		if s.Out != "" {
			what := "adversarial input"
			if !s.Success {
				what = "input of the best loss"
			}
			fmt.Fprintf(stdout, "wrote the %s to %s\n", what, s.Out)
		}
	}
	if runErr != nil {
		return fmt.Errorf("the attack stopped after %d queries (their result is above): %w", queries, runErr)
	}
	return nil
}
