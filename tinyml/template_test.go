package tinyml

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/boaopt/boa/space"
)

// TestTemplate: placeholders take the configuration's values (a whole
// float as a count), omit_when drops a layer, Params lists the names, and
// a placeholder the configuration lacks is an error naming it.
func TestTemplate(t *testing.T) {
	var tree any
	doc := `{"input": [32, 32, 3], "layers": [
		{"type": "conv2d", "filters": "${f}", "kernel": "${k}", "padding": "same", "activation": "${act}", "omit_when": {"removal": 1}},
		{"type": "conv2d", "filters": "${f}", "kernel": "${k}", "omit_when": {"removal": 2}},
		{"type": "maxpool2d", "pool": 2},
		{"type": "dense", "units": 4, "activation": "softmax"}]}`
	if err := json.Unmarshal([]byte(doc), &tree); err != nil {
		t.Fatal(err)
	}
	tpl := NewTemplate(tree)
	if got := strings.Join(tpl.Params(), ","); got != "act,f,k,removal" {
		t.Errorf("Params = %s", got)
	}
	n, err := tpl.Network(space.Assignment{"f": 16.0, "k": 3.0, "act": "tanh", "removal": 2.0})
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Layers) != 3 || n.Layers[0].Filters != 16 || n.Layers[0].Kernel != (Size{3, 3}) || n.Layers[0].Activation != "tanh" {
		t.Errorf("network %+v: want the first convolution (16 filters, 3×3, tanh) and not the second", n)
	}
	if n, _ := tpl.Network(space.Assignment{"f": 16.0, "k": 3.0, "act": "tanh", "removal": 1.0}); len(n.Layers) != 3 || n.Layers[0].Padding != "" {
		t.Errorf("removal 1: %+v, want the second (valid) convolution only", n)
	}
	if _, err := tpl.Network(space.Assignment{"f": 16.0, "act": "tanh", "removal": 1.0}); err == nil || !strings.Contains(err.Error(), `"${k}" names no parameter`) {
		t.Errorf("without k: %v", err)
	}
	if b, err := json.Marshal(tpl); err != nil || !strings.Contains(string(b), `"${f}"`) {
		t.Errorf("MarshalJSON: %s, %v", b, err)
	}
}

// TestProxy: the same network, optimiser and seed give the same value; a
// larger network scores higher than a tiny one, sigmoid and Adadelta
// lower than ReLU and Adam; an unknown optimiser is an error.
func TestProxy(t *testing.T) {
	base := HARBaseline()
	a, err := Proxy(base, "adam", 1)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := Proxy(base, "Adam", 1); a != b {
		t.Errorf("Proxy not deterministic: %v, %v", a, b)
	}
	small := HARBaseline()
	small.Layers[0].Filters, small.Layers[0].Kernel = 8, Size{1, 1}
	small.Layers[4].Units, small.Layers[5].Units = 8, 8
	s, _ := Proxy(small, "adam", 1)
	worse := HARBaseline()
	worse.Layers[0].Activation, worse.Layers[4].Activation = "sigmoid", "sigmoid"
	w, _ := Proxy(worse, "adadelta", 1)
	t.Logf("HAR baseline %.2f %%, small %.2f %%, sigmoid + Adadelta %.2f %%", a, s, w)
	if !(a > s+2) || !(a > w+2) || !(a > 90 && a < 96) {
		t.Errorf("baseline %v, small %v, sigmoid + adadelta %v", a, s, w)
	}
	if _, err := Proxy(base, "lion", 1); err == nil || !strings.Contains(err.Error(), `optimizer "lion": unknown`) {
		t.Errorf("lion: %v", err)
	}
}

// TestProxyAt: the learning curve ends at Proxy's value, rises with the
// epochs, lags more for a slow optimiser, and refuses an epoch outside
// 1..epochs.
func TestProxyAt(t *testing.T) {
	base := HARBaseline()
	final, _ := Proxy(base, "adam", 1)
	if last, err := ProxyAt(base, "adam", 1, 27, 27); err != nil || last != final {
		t.Errorf("ProxyAt(27 of 27) = %v, %v; want Proxy's %v", last, err, final)
	}
	curve := func(opt string) []float64 {
		var v []float64
		for _, e := range []int{1, 3, 9, 27} {
			a, err := ProxyAt(base, opt, 1, e, 27)
			if err != nil {
				t.Fatal(err)
			}
			v = append(v, a)
		}
		return v
	}
	adam, sgd := curve("adam"), curve("sgd")
	t.Logf("epochs 1, 3, 9, 27: adam %.2f, sgd %.2f", adam, sgd)
	for i := 1; i < len(adam); i++ {
		if !(adam[i] > adam[i-1]) {
			t.Errorf("adam's curve does not rise: %v", adam)
		}
	}
	if gap := (adam[0] - sgd[0]) - (adam[3] - sgd[3]); gap < 5 {
		t.Errorf("sgd lags adam by %.2f more points after one epoch than after 27, want ≥ 5", gap)
	}
	for _, e := range []int{0, 28} {
		if _, err := ProxyAt(base, "adam", 1, e, 27); err == nil {
			t.Errorf("epoch %d of 27: no error", e)
		}
	}
}
