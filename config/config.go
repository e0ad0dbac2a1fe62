package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/space"
)

// DefaultStorage is where studies live when neither the file nor the
// command line says otherwise: an embedded SQLite file.
const DefaultStorage = "sqlite:boa.db"

// Study is a study file.
type Study struct {
	Name      string `yaml:"name" json:"name"`
	Direction string `yaml:"direction,omitempty" json:"direction,omitempty"` // minimize (default) or maximize
	// Directions make a multi-objective study (directions.go), in place
	// of Direction.
	Directions Directions `yaml:"directions,omitempty" json:"directions,omitempty"`
	Storage    string     `yaml:"storage,omitempty" json:"storage,omitempty"` // storage URL; default DefaultStorage
	Sampler    Sampler    `yaml:"sampler,omitempty" json:"sampler,omitzero"`  // a name, or {type: NAME, option: value, ...}; default auto
	Trials     int        `yaml:"trials,omitempty" json:"trials,omitempty"`   // budget; 0 means no limit
	// Timeout ends each boa run of the study once it has passed (no
	// trial starts after it; objective.timeout is per trial); 0: none.
	Timeout   Duration `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	Workers   int      `yaml:"workers,omitempty" json:"workers,omitempty"` // trials at once in `boa run`; default 1
	Seed      uint64   `yaml:"seed,omitempty" json:"seed,omitempty"`
	Transform string   `yaml:"transform,omitempty" json:"transform,omitempty"` // none (default), log or copula: what the model is fitted to
	Pruner    *Pruner  `yaml:"pruner,omitempty" json:"pruner,omitempty"`       // which running trials stop early; none by default
	// Constraints are limits on the metrics the trials report
	// (BOA_METRIC lines); none by default.
	Constraints Constraints `yaml:"constraints,omitempty" json:"constraints,omitempty"`
	// Fidelity is what the trials' reports count, when they may be judged
	// before their end (fidelity.go); none by default.
	Fidelity *Fidelity `yaml:"fidelity,omitempty" json:"fidelity,omitempty"`
	// Deploy makes each configuration a network that must fit a
	// microcontroller (deploy.go, docs/tinyml.md); none by default.
	Deploy    *Deploy      `yaml:"deploy,omitempty" json:"deploy,omitempty"`
	Space     *space.Space `yaml:"space" json:"space"`
	Objective *Objective   `yaml:"objective,omitempty" json:"objective,omitempty"`
}

// Objective is what a trial runs: a command (DESIGN.md §2.3) or, for demos
// and tests, a built-in test function whose arguments are the space's
// parameters in order.
type Objective struct {
	Command  Command           `yaml:"command,omitempty" json:"command,omitempty"`
	Function string            `yaml:"function,omitempty" json:"function,omitempty"`
	Timeout  Duration          `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	Env      map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
	Dir      string            `yaml:"dir,omitempty" json:"dir,omitempty"`
	Logs     string            `yaml:"logs,omitempty" json:"logs,omitempty"` // folder of per-trial stdout/stderr logs
}

// Duration is a time.Duration written as "10m", "90s", "1h30m".
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

func (d *Duration) parse(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || v < 0 {
		return fmt.Errorf("timeout: %q is not a duration like 90s, 10m or 1h30m", s)
	}
	*d = Duration(v)
	return nil
}

func (d *Duration) UnmarshalYAML(n *yaml.Node) error { return d.parse(n.Value) }
func (d Duration) MarshalYAML() (any, error)         { return d.String(), nil }
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("timeout: want a string like \"10m\", got %s", b)
	}
	return d.parse(s)
}
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// Load reads and validates the study file at path. Its command runs in
// the file's directory (objective.dir, when given, is relative to it), so
// that `[python3, train.py]` beside the file works from wherever boa is
// started, as NNI runs a trial in its config's code directory.
func Load(path string) (*Study, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if o := s.Objective; o != nil && !filepath.IsAbs(o.Dir) {
		base, err := filepath.Abs(filepath.Dir(path))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		o.Dir = filepath.Join(base, o.Dir)
	}
	return s, nil
}

// Direction, Storage, Sampler and Workers with their defaults applied.
func (s *Study) StorageURL() string {
	if s.Storage == "" {
		return DefaultStorage
	}
	return s.Storage
}

func (s *Study) SamplerName() string {
	if s.Sampler.Type == "" {
		return "auto"
	}
	return s.Sampler.Type
}
