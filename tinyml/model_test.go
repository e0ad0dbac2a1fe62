package tinyml

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestBaselinesExactly: spec §5.5–5.6, Tables 7.4–7.5 (R4): parameters,
// ROM at ×1, ×4, ×8 and RAM to the byte, MACC as the spec derives it, and
// the YES/NO deployability matrix with the published X-CROSS values.
func TestBaselinesExactly(t *testing.T) {
	type row struct {
		rom    int
		xcross float64 // published
		big    bool
		tiny   bool
	}
	for _, c := range []struct {
		name        string
		net         Network
		params, ram int
		macc        int
		byFactor    map[int]row
	}{
		{"HAR", HARBaseline(), 738_950, 24_576, 874_752, map[int]row{
			1: {2_955_800, 100, false, false}, 4: {794_136, 99.98, true, false}, 8: {375_448, 98.04, true, false}}},
		{"IR", IRBaseline(), 1_247_780, 140_800, 20_863_360, map[int]row{
			1: {4_991_120, 100, false, false}, 4: {1_453_200, 100, false, false}, 8: {862_416, 99.05, false, false}}},
	} {
		for _, f := range Compressions {
			r, err := Analyze(c.net, f)
			if err != nil {
				t.Fatalf("%s ×%d: %v", c.name, f, err)
			}
			want := c.byFactor[f]
			if r.Params != c.params || r.RAM != c.ram || r.ROM != want.rom || r.MACC != c.macc {
				t.Errorf("%s ×%d: params %d, RAM %d B, ROM %d B, MACC %d; want %d, %d, %d, %d", c.name, f, r.Params, r.RAM, r.ROM, r.MACC, c.params, c.ram, want.rom, c.macc)
			}
			if big := STM32L476.CheckXCross(r, want.xcross).Deployable; big != want.big {
				t.Errorf("%s ×%d: deployable on the Big Board %v, Table 7.4/7.5 says %v", c.name, f, big, want.big)
			}
			if tiny := STM32F303.CheckXCross(r, want.xcross).Deployable; tiny != want.tiny {
				t.Errorf("%s ×%d: deployable on the Tiny Board %v, Table 7.4/7.5 says %v", c.name, f, tiny, want.tiny)
			}
		}
	}
}

// TestXCrossEstimate: the analytic X-CROSS of spec §5.5 on the HAR
// baseline (≈ 99.96 % at ×4, ≈ 98.2 % at ×8).
func TestXCrossEstimate(t *testing.T) {
	for f, want := range map[int]float64{1: 100, 4: 100 - 0.05*0.720896, 8: 100 - 2.5*0.73728} {
		r, err := Analyze(HARBaseline(), f)
		if err != nil {
			t.Fatal(err)
		}
		if d := r.XCross - want; d > 1e-9 || d < -1e-9 {
			t.Errorf("×%d: X-CROSS %v, want %v", f, r.XCross, want)
		}
	}
}

// TestSmallHARFitsTheTinyBoard: spec §10: the HAR baseline is not
// deployable on the Tiny Board, a small HAR network of the Table 7.3
// space is (8 filters, 1×1 kernel, 2×2 pool, 16 dense units, ×8).
func TestSmallHARFitsTheTinyBoard(t *testing.T) {
	n := HARBaseline()
	n.Layers[0].Filters, n.Layers[0].Kernel = 8, Size{1, 1}
	n.Layers[4].Units, n.Layers[5].Units = 16, 16
	r, err := Analyze(n, 8)
	if err != nil {
		t.Fatal(err)
	}
	if v := STM32F303.Check(r); !v.Deployable {
		t.Errorf("small HAR network: %+v; %+v: want deployable on the Tiny Board", r, v)
	}
	r, _ = Analyze(HARBaseline(), 8)
	if v := STM32F303.Check(r); v.Deployable || v.RAMOK {
		t.Errorf("HAR baseline ×8 on the Tiny Board: %+v, want its RAM (24,576 B > 16,000) to fail", v)
	}
}

// TestNotComputable: shapes that do not work out name the layer and wrap
// ErrNotComputable.
func TestNotComputable(t *testing.T) {
	n := HARBaseline()
	n.Layers[0].Kernel = Size{2, 4} // wider than the 3 columns
	if _, err := Analyze(n, 1); !errors.Is(err, ErrNotComputable) || !strings.Contains(err.Error(), "layers[0]") {
		t.Errorf("a 2×4 kernel on 90×3: %v, want not computable at layers[0]", err)
	}
	n = HARBaseline()
	n.Layers[1].Pool = Size{3, 3} // after a 2×2 conv the width is 2
	if _, err := Analyze(n, 1); !errors.Is(err, ErrNotComputable) || !strings.Contains(err.Error(), "layers[1]") {
		t.Errorf("a 3×3 pool on 89×2: %v, want not computable at layers[1]", err)
	}
	if _, err := Analyze(HARBaseline(), 2); err == nil || errors.Is(err, ErrNotComputable) {
		t.Errorf("×2: %v, want a compression error", err)
	}
}

// TestParseNetworkErrors: bad input names the field.
func TestParseNetworkErrors(t *testing.T) {
	good, err := json.Marshal(HARBaseline())
	if err != nil {
		t.Fatal(err)
	}
	n, err := ParseNetwork(good)
	if err != nil {
		t.Fatalf("the HAR baseline's own JSON: %v", err)
	}
	if r, _ := Analyze(n, 4); r.ROM != 794_136 {
		t.Errorf("parsed HAR baseline: ROM %d at ×4, want 794,136", r.ROM)
	}
	for _, c := range []struct{ json, want string }{
		{`{"input": [90, 3, 1], "layers": [{"type": "conv3d", "filters": 8, "kernel": 2}, {"type": "dense", "units": 6}]}`, `layers[0].type: unknown layer "conv3d"`},
		{`{"input": [90, 3, 1], "layers": [{"type": "conv2d", "filters": -3, "kernel": 2}, {"type": "dense", "units": 6}]}`, "layers[0].filters: -3 must be ≥ 1"},
		{`{"input": [90, -3, 1], "layers": [{"type": "dense", "units": 6}]}`, "input[1]: -3 must be ≥ 1"},
		{`{"input": [90, 3, 1], "layers": [{"type": "dense", "units": 0}]}`, "layers[0].units: 0 must be ≥ 1"},
		{`{"input": [90, 3, 1], "layers": [{"type": "dense", "units": 6, "activation": "gelu"}]}`, `layers[0].activation: unknown activation "gelu"`},
		{`{"input": [90, 3, 1], "layers": [{"type": "dense", "units": 6, "stride": 2}]}`, `unknown field "stride"`},
		{`{"input": [90, 3, 1], "layers": [{"type": "conv2d", "filters": 8, "kernel": "two"}, {"type": "dense", "units": 6}]}`, "want a number or [height, width]"},
		{`{"input": [90, 3, 1], "layers": [{"type": "dropout", "rate": 1.5}, {"type": "dense", "units": 6}]}`, "layers[0].rate: 1.5 is not in [0, 1)"},
	} {
		_, err := ParseNetwork([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.json, err, c.want)
		}
	}
}

// TestBoards: user boards in YAML, lookup by name and the thesis's
// aliases, errors naming the field and the unknown board.
func TestBoards(t *testing.T) {
	bs, err := ParseBoards([]byte("- name: nucleo-f401\n  mcu: STM32F401RE\n  ram_bytes: 96000\n  rom_bytes: 512000\n  min_xcross: 95\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Lookup("Nucleo-F401", bs)
	if err != nil || b.RAMLimit != 96000 || b.ROMLimit != 512000 {
		t.Errorf("Lookup(nucleo-f401) = %+v, %v", b, err)
	}
	if b, err := Lookup("tiny", nil); err != nil || b != STM32F303 {
		t.Errorf("Lookup(tiny) = %+v, %v", b, err)
	}
	if _, err := Lookup("stm32x", bs); err == nil || !strings.Contains(err.Error(), `board "stm32x": unknown (known: nucleo-f401, stm32l476, stm32f303`) {
		t.Errorf("Lookup(stm32x): %v", err)
	}
	for yaml, want := range map[string]string{
		"- name: x\n  ram_bytes: 0\n  rom_bytes: 10\n":              "boards[0] (x).ram_bytes: 0 must be ≥ 1",
		"- ram_bytes: 10\n  rom_bytes: 10\n":                        "boards[0].name: missing",
		"- name: x\n  ram_bytes: 10\n  rom_bytes: 10\n  flash: 3\n": "field flash not found",
	} {
		if _, err := ParseBoards([]byte(yaml)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", yaml, err, want)
		}
	}
}
