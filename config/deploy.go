package config

import (
	"fmt"
	"math"
	"os"
	"slices"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/tinyml"
	"github.com/boaopt/boa/tinyml/train"
)

// Deploy is a study file's deploy block (docs/tinyml.md): each trial's
// configuration is a network, built from the space's parameters by
// Network, that must fit Board at Compression. The study gets the
// board's limits as constraints on the metrics DeployMetrics names, and
// knows them before a trial runs (study.Known), so that no trial is spent
// on a network that cannot be deployed; a trial that measures its
// X-CROSS accuracy may report it (BOA_METRIC xcross=...), which replaces
// the estimate.
type Deploy struct {
	Board       string          `yaml:"board" json:"board"`                                 // a built-in board (stm32l476, stm32f303, big, tiny) or one of Boards
	Boards      string          `yaml:"boards,omitempty" json:"boards,omitempty"`           // a YAML file of your own boards (tinyml.ParseBoards)
	Compression int             `yaml:"compression,omitempty" json:"compression,omitempty"` // 1 (default), 4 or 8
	Network     tinyml.Template `yaml:"network" json:"network"`                             // the network, with ${param} placeholders

	board tinyml.Board // resolved by validate
	input [3]int       // the network's input, at the space's centre (validate)
}

// The metrics a deploy block adds: the three it limits and two more for
// the record.
const (
	MetricRAM    = "ram_bytes"
	MetricROM    = "rom_bytes"
	MetricXCross = "xcross"
	MetricParams = "params"
	MetricMACC   = "macc"
)

// FunctionTinyMLProxy is the built-in objective of a study with a deploy
// block: the analytic accuracy proxy of the trial's network
// (tinyml.Proxy, spec constrained-autotinyml §5.7 stand-in b), in %, with
// the space's parameter "optimizer" as its optimiser when there is one.
const FunctionTinyMLProxy = "tinyml-proxy"

// FunctionTinyMLTrain is the other built-in objective of a deploy block:
// the network trained in Go on the synthetic task its input names
// (stand-in a of spec §5.7, package tinyml/train): [90, 3, 1] the HAR-like
// windows, [32, 32, 3] the fill-level images; 3 epochs, the validation
// accuracy in %.
const FunctionTinyMLTrain = "tinyml-train"

// DeployMetrics are the metrics a deploy block's study knows.
var DeployMetrics = []string{MetricRAM, MetricROM, MetricXCross, MetricParams, MetricMACC}

var deployFields = []string{"board", "boards", "compression", "network"}

func parseDeploy(key, val *yaml.Node, d *Deploy, lines map[string]int, add func(line int, field, format string, args ...any)) {
	if val.Kind != yaml.MappingNode {
		add(key.Line, "deploy", "want a mapping such as {board: stm32f303, compression: 8, network: {...}}, got %s", nodeKind(val))
		return
	}
	eachField(val, "deploy.", deployFields, lines, add, func(k, v *yaml.Node) {
		switch f := "deploy." + k.Value; k.Value {
		case "board":
			decodeField(v, &d.Board, "a board name", f, add)
		case "boards":
			decodeField(v, &d.Boards, "a file name", f, add)
		case "compression":
			decodeWhole(v, &d.Compression, "1, 4 or 8", f, add)
		case "network":
			var tree any
			if err := v.Decode(&tree); err != nil || v.Kind != yaml.MappingNode {
				add(v.Line, f, "want a network description {input: [H, W, C], layers: [...]}, got %s", nodeKind(v))
				return
			}
			d.Network = tinyml.NewTemplate(jsonTree(tree))
		}
	})
}

// jsonTree turns the maps yaml decodes (map[string]any with any keys) into
// the JSON-shaped tree tinyml.Template takes.
func jsonTree(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = jsonTree(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[fmt.Sprint(k)] = jsonTree(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsonTree(e)
		}
		return out
	}
	return v
}

// validateDeploy resolves the board, checks the compression, the
// placeholders against the space and the network of the space's centre,
// and that the file's own constraints leave the deploy metrics alone.
func (s *Study) validateDeploy(sp *space.Space, add func(field, format string, args ...any)) {
	d := s.Deploy
	var extra []tinyml.Board
	if d.Boards != "" {
		data, err := os.ReadFile(d.Boards)
		if err == nil {
			extra, err = tinyml.ParseBoards(data)
		}
		if err != nil {
			add("deploy.boards", "%v", err)
			return
		}
	}
	b, err := tinyml.Lookup(d.Board, extra)
	if err != nil {
		add("deploy.board", "%v", err)
		return
	}
	d.board = b
	if !slices.Contains(tinyml.Compressions, d.compression()) {
		add("deploy.compression", "must be 1, 4 or 8, got %d", d.Compression)
	}
	for _, m := range DeployMetrics {
		if _, ok := s.Constraints[m]; ok {
			add("constraints."+m, "is the deploy block's metric; its limit comes from the board (deploy.board)")
		}
	}
	if sp == nil {
		return
	}
	for _, p := range d.Network.Params() {
		if _, ok := sp.Index(p); !ok {
			add("deploy.network", "${%s} names no parameter of the space", p)
			return
		}
	}
	centre := make([]float64, sp.Len())
	for i := range centre {
		centre[i] = 0.5
	}
	sp.Round(centre)
	net, err := d.Network.Network(sp.Decode(centre))
	if err != nil {
		add("deploy.network", "at the centre of the space: %v", err)
		return
	}
	d.input = net.Input
}

// trainable says whether FunctionTinyMLTrain has a data set for the
// network's input; a deploy block validate could not read is left to its
// own errors.
func (d *Deploy) trainable() error {
	if d.input == [3]int{} {
		return nil
	}
	_, err := task(d.input)
	return err
}

func (d *Deploy) compression() int {
	if d.Compression == 0 {
		return 1
	}
	return d.Compression
}

// constraints are the board's limits on the deploy metrics.
func (d *Deploy) constraints() constraint.Set {
	ram, rom, x := float64(d.board.RAMLimit), float64(d.board.ROMLimit), d.board.MinXCross
	return constraint.Set{MetricRAM: {Max: &ram}, MetricROM: {Max: &rom}, MetricXCross: {Min: &x}}
}

// Known computes the deploy metrics of a configuration (study.Known): the
// analytic model of the network the configuration builds. A network that
// is not computable (a kernel larger than its input) gets NaN for each,
// which breaks the limits.
func (d *Deploy) Known() study.Known {
	return func(a space.Assignment) map[string]float64 {
		m := map[string]float64{}
		net, err := d.Network.Network(a)
		var r tinyml.Report
		if err == nil {
			r, err = tinyml.Analyze(net, d.compression())
		}
		if err != nil {
			for _, name := range DeployMetrics {
				m[name] = math.NaN()
			}
			return m
		}
		m[MetricRAM], m[MetricROM], m[MetricXCross] = float64(r.RAM), float64(r.ROM), r.XCross
		m[MetricParams], m[MetricMACC] = float64(r.Params), float64(r.MACC)
		return m
	}
}

// Proxy is FunctionTinyMLProxy's value for the configuration a: the
// accuracy proxy of its network, optimised by a's "optimizer" (Adam when
// the space has none). A network that is not computable is an error: the
// trial fails, as its training would.
func (d *Deploy) Proxy(a space.Assignment, seed uint64) (float64, error) {
	net, err := d.Network.Network(a)
	if err != nil {
		return 0, err
	}
	opt, _ := a["optimizer"].(string)
	return tinyml.Proxy(net, opt, seed)
}

// tasks are the synthetic data sets of FunctionTinyMLTrain by input
// shape, made once (seed 1) when first used.
var tasks = map[[3]int]func() train.Split{
	{90, 3, 1}:  sync.OnceValue(func() train.Split { return train.HARLike(1) }),
	{32, 32, 3}: sync.OnceValue(func() train.Split { return train.FillLevel(1) }),
}

// task returns the data set of a network's input, made when first called;
// an error naming the inputs there are when it has none.
func task(input [3]int) (func() train.Split, error) {
	t, ok := tasks[input]
	if !ok {
		return nil, fmt.Errorf("%s trains on the HAR-like windows (input [90, 3, 1]) or the fill-level images ([32, 32, 3]), not an input of %v", FunctionTinyMLTrain, input)
	}
	return t, nil
}

// Train is FunctionTinyMLTrain's value for the configuration a: the
// validation accuracy of its network after 3 epochs with a's "optimizer"
// (Adam when the space has none), seed drawing the weights and the order.
func (d *Deploy) Train(a space.Assignment, seed uint64) (float64, error) {
	net, err := d.Network.Network(a)
	if err != nil {
		return 0, err
	}
	data, err := task(net.Input)
	if err != nil {
		return 0, err
	}
	s := data()
	opt, _ := a["optimizer"].(string)
	acc, err := train.Fit(net, opt, s.Train, s.Val, train.Config{}, seed, nil)
	if err != nil {
		return 0, err
	}
	return acc[len(acc)-1], nil
}
