package config

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/space"
)

const deployStudy = `
name: har
direction: maximize
deploy:
  board: tiny
  compression: 8
  network:
    input: [90, 3, 1]
    layers:
      - {type: conv2d, filters: "${filters}", kernel: 2, activation: relu}
      - {type: maxpool2d, pool: 2}
      - {type: dense, units: "${units}", activation: relu}
      - {type: dense, units: 6, activation: softmax}
space:
  filters: {type: ordinal, values: [8, 16, 128]}
  units:   {type: ordinal, values: [16, 128]}
objective: {function: tinyml-proxy}
`

// TestDeploy: the deploy block adds the board's limits as constraints,
// knows the metrics of each configuration from its network (the HAR
// baseline's convolution and a 128-unit layer at ×8: 24,576 B of RAM,
// over the Tiny Board's 16,000; ROM 2,560 B of convolution, 361,024 of
// the 5632×128 layer in 4 bits, 3,096 of the output layer), and reads
// the same from JSON.
func TestDeploy(t *testing.T) {
	s, err := ParseYAML([]byte(deployStudy))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := s.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if got := spec.Constraints.String(); got != "ram_bytes <= 16000, rom_bytes <= 60000, xcross >= 95" {
		t.Errorf("constraints %q", got)
	}
	known := s.Deploy.Known()
	big := known(space.Assignment{"filters": 128.0, "units": 128.0})
	small := known(space.Assignment{"filters": 8.0, "units": 16.0})
	if big[MetricRAM] != 24576 || big[MetricROM] != 366680 {
		t.Errorf("the HAR baseline's metrics %v, want RAM 24,576 B and ROM 366,680 B", big)
	}
	if small[MetricRAM] > 16000 || small[MetricROM] > 60000 || small[MetricXCross] < 95 {
		t.Errorf("a small network's metrics %v, want it within the Tiny Board's limits", small)
	}
	v, err := s.Deploy.Proxy(space.Assignment{"filters": 128.0, "units": 128.0}, 1)
	if err != nil || !(v > 80 && v < 100) {
		t.Errorf("proxy accuracy %v, %v", v, err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	j, err := ParseJSON(b)
	if err != nil {
		t.Fatalf("the study as JSON: %v\n%s", err, b)
	}
	if got := j.Deploy.Known()(space.Assignment{"filters": 128.0, "units": 128.0}); got[MetricRAM] != 24576 {
		t.Errorf("from JSON: %v", got)
	}
}

// TestDeployNotComputable: a network whose kernel is larger than its
// input gets NaN metrics, which break the limits.
func TestDeployNotComputable(t *testing.T) {
	doc := strings.Replace(deployStudy, "kernel: 2", `kernel: "${k}"`, 1)
	doc = strings.Replace(doc, "  units:   {type: ordinal, values: [16, 128]}\n", "  units:   {type: ordinal, values: [16, 128]}\n  k:       {type: ordinal, values: [1, 4]}\n", 1)
	s, err := ParseYAML([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	m := s.Deploy.Known()(space.Assignment{"filters": 8.0, "units": 16.0, "k": 4.0})
	if !math.IsNaN(m[MetricRAM]) || !math.IsNaN(m[MetricXCross]) {
		t.Errorf("a 4×4 kernel on 90×3: %v, want NaN", m)
	}
	if _, err := s.Deploy.Proxy(space.Assignment{"filters": 8.0, "units": 16.0, "k": 4.0}, 1); err == nil {
		t.Error("the proxy of a network that is not computable did not fail")
	}
}

// TestDeployErrors: each mistake names its field.
func TestDeployErrors(t *testing.T) {
	dir := t.TempDir()
	boards := filepath.Join(dir, "boards.yaml")
	os.WriteFile(boards, []byte("- name: mine\n  ram_bytes: 0\n  rom_bytes: 10\n"), 0o644)
	for _, c := range []struct{ old, new, want string }{
		{"board: tiny", "board: esp32", `deploy.board: board "esp32": unknown`},
		{"compression: 8", "compression: 2", "deploy.compression: must be 1, 4 or 8, got 2"},
		{"compression: 8", "compresion: 8", "deploy.compresion: unknown field"},
		{`"${units}"`, `"${width}"`, "deploy.network: ${width} names no parameter of the space"},
		{"units: 6, activation: softmax", "units: 6, activation: gelu", `deploy.network: at the centre of the space: network: layers[3].activation: unknown activation "gelu"`},
		{"board: tiny", "board: tiny\n  boards: " + boards, "deploy.boards: boards[0] (mine).ram_bytes: 0 must be ≥ 1"},
		{"direction: maximize", "direction: maximize\nconstraints: {ram_bytes: {max: 1}}", "constraints.ram_bytes: is the deploy block's metric"},
		{"  network:\n", "  network: [1, 2]\n  old:\n", "deploy.network: want a network description"},
		{"tinyml-proxy", "tinyml-train", ""},                // trainable: the HAR-like input
		{"input: [90, 3, 1]\n", "input: [28, 28, 1]\n", ""}, // the proxy needs no data set
	} {
		doc := strings.Replace(deployStudy, c.old, c.new, 1)
		if c.want == "" {
			if _, err := ParseYAML([]byte(doc)); err != nil {
				t.Errorf("%s → %s: %v", c.old, c.new, err)
			}
			continue
		}
		if _, err := ParseYAML([]byte(doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v, want %q", c.old, c.new, err, c.want)
		}
	}
	noDeploy := "name: a\nspace:\n  x: {type: float, low: 0, high: 1}\nobjective: {function: tinyml-proxy}\n"
	if _, err := ParseYAML([]byte(noDeploy)); err == nil || !strings.Contains(err.Error(), "objective.function: tinyml-proxy is computed from a deploy block's network") {
		t.Errorf("tinyml-proxy without deploy: %v", err)
	}
	mnist := strings.Replace(strings.Replace(deployStudy, "input: [90, 3, 1]", "input: [28, 28, 1]", 1), "tinyml-proxy", "tinyml-train", 1)
	if _, err := ParseYAML([]byte(mnist)); err == nil || !strings.Contains(err.Error(), "objective.function: tinyml-train trains on the HAR-like windows (input [90, 3, 1]) or the fill-level images ([32, 32, 3]), not an input of [28 28 1]") {
		t.Errorf("tinyml-train on a 28×28 input: %v", err)
	}
}
