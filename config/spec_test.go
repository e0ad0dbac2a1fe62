package config

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

func TestSpec(t *testing.T) {
	cfg, err := ParseYAML([]byte(`name: s
direction: maximize
trials: 20
seed: 3
transform: log
pruner: median
constraints: {ram_kb: {max: 256}, accuracy: {min: 0.8}}
space:
  x: {type: float, low: 0, high: 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := cfg.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if spec.Name != "s" || spec.Direction != study.Maximize || spec.Sampler != "auto" || spec.Seed != 3 ||
		spec.Budget != 20 || spec.Transform != transform.Log || spec.Pruner.Type != "median" || spec.Space != cfg.Space ||
		spec.Constraints.String() != "accuracy >= 0.8, ram_kb <= 256" {
		t.Errorf("Spec() = %+v", spec)
	}
	cfg.Transform = "cube"
	if _, err := cfg.Spec(); err == nil || !strings.HasPrefix(err.Error(), "transform: ") {
		t.Errorf("an unknown transform: err = %v, want one naming transform", err)
	}
}

func TestRunnerCommand(t *testing.T) {
	o := Objective{Command: Command{{"python3"}, {"train.py"}, {"--C"}, {"{C}"}, {"--degree", "{C?}"}}, Timeout: Duration(time.Minute), Env: map[string]string{"A": "1"}}
	cmd, err := o.RunnerCommand()
	if err != nil {
		t.Fatal(err)
	}
	if cmd.LogDir != DefaultLogs || cmd.Timeout != time.Minute || len(cmd.Args) != 6 || !slices.Equal(cmd.Groups, []runner.Group{{From: 4, To: 6}}) || !slices.Contains(cmd.Env, "A=1") {
		t.Errorf("RunnerCommand() = %+v", cmd)
	}
	o.Logs = "logs"
	if cmd, _ := o.RunnerCommand(); cmd.LogDir != "logs" {
		t.Errorf("objective.logs: LogDir %q", cmd.LogDir)
	}
}
