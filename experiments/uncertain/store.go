package uncertain

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
)

// record is one (cell, model, seed) score as stored on disk; NaN (a failed
// fit) is stored as null.
type record struct {
	Cell                                    Cell
	Model                                   string
	Seed                                    int
	LL, LLNoisy, SqErr, MeanVar, Noise, LML *float64
	Seconds                                 float64
	Err                                     string `json:",omitempty"`
	Clamped, CholFail                       int    `json:",omitempty"`
}

func ptr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func val(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// Save writes r as JSON lines of records, so that runs of separate task
// groups (one heavy run at a time) can be merged by Load into one set of
// tables and one acceptance check.
func (r *Results) Save(path string) error {
	var recs []record
	for _, c := range r.Cells {
		for _, m := range r.Models {
			for i, s := range r.Scores[c][m] {
				recs = append(recs, record{c, m, r.Seeds[i], ptr(s.LL), ptr(s.LLNoisy), ptr(s.SqErr),
					ptr(s.MeanVar), ptr(s.Noise), ptr(s.LML), s.Seconds, s.Err, s.Clamped, s.CholFail})
			}
		}
	}
	b, err := json.MarshalIndent(recs, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// Load merges the results saved in paths. Cells keep the order of first
// appearance; every cell must have every model on every seed of the first
// file, else the merged tables would mix seed sets.
func Load(paths ...string) (*Results, error) {
	r := &Results{Scores: map[Cell]map[string][]Score{}}
	seedIdx := map[int]int{}
	type key struct {
		c Cell
		m string
	}
	got := map[key]map[int]Score{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var recs []record
		if err := json.Unmarshal(b, &recs); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for _, x := range recs {
			if !slices.Contains(r.Cells, x.Cell) {
				r.Cells = append(r.Cells, x.Cell)
			}
			if !slices.Contains(r.Models, x.Model) {
				r.Models = append(r.Models, x.Model)
			}
			if _, ok := seedIdx[x.Seed]; !ok {
				seedIdx[x.Seed] = len(r.Seeds)
				r.Seeds = append(r.Seeds, x.Seed)
			}
			k := key{x.Cell, x.Model}
			if got[k] == nil {
				got[k] = map[int]Score{}
			}
			got[k][x.Seed] = Score{val(x.LL), val(x.LLNoisy), val(x.SqErr), val(x.MeanVar), val(x.Noise), val(x.LML), x.Seconds, x.Err, x.Clamped, x.CholFail}
		}
	}
	for _, c := range r.Cells {
		r.Scores[c] = map[string][]Score{}
		for _, m := range r.Models {
			sc := make([]Score, len(r.Seeds))
			for i, s := range r.Seeds {
				v, ok := got[key{c, m}][s]
				if !ok {
					return nil, fmt.Errorf("experiments/uncertain: %s %s lacks seed %d", c, m, s)
				}
				sc[i] = v
			}
			r.Scores[c][m] = sc
		}
	}
	return r, nil
}
