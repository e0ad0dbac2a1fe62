package space

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Space is a search space: an ordered list of parameters and their
// conditions. It is immutable after New and safe for concurrent use.
// Parameter order is declaration order; coordinate i of an encoded point
// belongs to parameter i.
type Space struct {
	params []Param
	index  map[string]int
	levels []int     // legal values per parameter, 0 for Float
	ta, tb []float64 // Float and Int: transformed ends of the encoded range
	conds  [][]cond  // per parameter, sorted by parent
	topo   []int     // parents before children, declaration order otherwise
	feat   []int     // first feature column per parameter
	nfeat  int
	// For Key: each name quoted and followed by '=', and the quoted levels
	// of Categorical, Bool and Ordinal parameters.
	keyName  []string
	keyLevel [][]string
}

// cond is one parent clause of a When: the parent and its allowed levels,
// sorted. A list rather than a mask over the parent's levels: an Int parent
// may have up to 2e15+1 of them.
type cond struct {
	parent  int
	allowed []int
}

// allows reports whether level k of the parent satisfies the clause.
func (c *cond) allows(k int) bool {
	_, ok := slices.BinarySearch(c.allowed, k)
	return ok
}

// New validates params and builds a space. The error lists every problem
// found, each a *ParamError naming the parameter and what is wrong: empty or
// duplicate names, bounds (low ≥ high, NaN/Inf, Int bounds that are not
// whole numbers, a Float range whose width overflows; on a log scale, low
// below the smallest normal float64, a range too narrow for ln to tell its
// ends apart, Int bounds above 1e13),
// empty or duplicate values and choices, ordinal values out of order,
// conditions on unknown or continuous parents, condition values the parent
// can never take, and cyclic conditions. The
// order of declaration of parents and children does not matter.
func New(params ...Param) (*Space, error) {
	s, errs := build(params, nil)
	if len(errs) > 0 {
		return nil, joinErrs(errs)
	}
	return s, nil
}

// MustNew is like New but panics on error; for spaces fixed in code.
func MustNew(params ...Param) *Space {
	s, err := New(params...)
	if err != nil {
		panic(err)
	}
	return s
}

// build validates params and builds the space. Parameters marked broken
// already have errors reported by a decoder: they keep their names, so that
// conditions on them resolve, but are not checked again.
func build(params []Param, broken []bool) (*Space, []*ParamError) {
	if len(params) == 0 {
		return nil, []*ParamError{perr("", "", "the space has no parameters; declare at least one")}
	}
	var errs []*ParamError
	n := len(params)
	s := &Space{
		params: make([]Param, n),
		index:  make(map[string]int, n),
		levels: make([]int, n),
		ta:     make([]float64, n),
		tb:     make([]float64, n),
		conds:  make([][]cond, n),
		feat:   make([]int, n),
	}
	valid := make([]bool, n)
	for i, p := range params {
		p = p.clone()
		s.params[i] = p
		switch {
		case p.Name == "":
			errs = append(errs, perr("", "", "parameter %d has an empty name", i+1))
			continue
		case strings.TrimSpace(p.Name) != p.Name:
			errs = append(errs, perr(p.Name, "", "the name %q has leading or trailing spaces", p.Name))
		}
		if j, dup := s.index[p.Name]; dup {
			errs = append(errs, perr(p.Name, "", "declared twice (parameters %d and %d)", j+1, i+1))
			continue
		}
		s.index[p.Name] = i
		if broken != nil && broken[i] {
			continue
		}
		pe := p.check()
		errs = append(errs, pe...)
		valid[i] = len(pe) == 0
	}
	for i := range s.params {
		if valid[i] {
			s.setup(i)
		}
	}
	errs = append(errs, s.buildConds(valid)...)
	if e := s.sortTopo(); e != nil {
		errs = append(errs, e)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	for i, p := range s.params {
		s.feat[i] = s.nfeat
		if p.Kind == Categorical || p.Kind == Bool {
			s.nfeat += s.levels[i]
		} else {
			s.nfeat++
		}
	}
	s.keyName = make([]string, n)
	s.keyLevel = make([][]string, n)
	for i, p := range s.params {
		s.keyName[i] = strconv.Quote(p.Name) + "="
		if p.Kind == Categorical || p.Kind == Bool || p.Kind == Ordinal {
			s.keyLevel[i] = make([]string, s.levels[i])
			for k := range s.keyLevel[i] {
				s.keyLevel[i][k] = strconv.Quote(Format(p.levelValue(k)))
			}
		}
	}
	return s, nil
}

// setup precomputes the encoding of a valid parameter. For Float, the code
// is (t(v) − ta)/(tb − ta) with t the identity or ln. For Int, the cell of the
// integer v is [t(v − ½), t(v + ½)) mapped the same way, so the cells tile
// [0,1] and on a log scale their widths follow log v.
func (s *Space) setup(i int) {
	p := &s.params[i]
	s.levels[i] = p.numLevels()
	lo, hi := p.Low, p.High
	if p.Kind == Int {
		lo, hi = lo-0.5, hi+0.5
	}
	if p.Log {
		lo, hi = math.Log(lo), math.Log(hi)
	}
	s.ta[i], s.tb[i] = lo, hi
}

// buildConds resolves When clauses to parent indices and allowed levels, and
// rewrites the listed values in canonical form.
func (s *Space) buildConds(valid []bool) []*ParamError {
	var errs []*ParamError
	for i := range s.params {
		p := &s.params[i]
		if p.Name == "" || s.index[p.Name] != i {
			continue
		}
		parents := make([]string, 0, len(p.When))
		for name := range p.When {
			parents = append(parents, name)
		}
		slices.Sort(parents)
		for _, name := range parents {
			vals := p.When[name]
			j, ok := s.index[name]
			switch {
			case !ok:
				errs = append(errs, perr(p.Name, "when", "condition on unknown parameter %q", name))
				continue
			case j == i:
				errs = append(errs, perr(p.Name, "when", "a parameter cannot be conditional on itself"))
				continue
			case !valid[j] && s.params[j].Kind != Float:
				continue // the parent's own errors are reported
			case s.params[j].Kind == Float:
				errs = append(errs, perr(p.Name, "when", "condition on %q, a float parameter; conditions need a discrete parent (int, ordinal, categorical or bool)", name))
				continue
			case len(vals) == 0:
				errs = append(errs, perr(p.Name, "when", "the condition on %q lists no values, so %s could never be active", name, p.Name))
				continue
			case !valid[j]:
				continue
			}
			par := &s.params[j]
			c := cond{parent: j}
			canon := make([]string, 0, len(vals))
			for _, v := range vals {
				k, ok := par.parseLevel(v)
				if !ok {
					errs = append(errs, perr(p.Name, "when", "condition value %q is never taken by %s, which is %s", v, name, par.describe()))
					continue
				}
				if !c.allows(k) {
					canon = append(canon, Format(par.levelValue(k)))
					at, _ := slices.BinarySearch(c.allowed, k)
					c.allowed = slices.Insert(c.allowed, at, k)
				}
			}
			p.When[name] = canon
			s.conds[i] = append(s.conds[i], c)
		}
	}
	return errs
}

// sortTopo orders parameters so that parents come before children, keeping
// declaration order where conditions allow, and reports a cycle.
func (s *Space) sortTopo() *ParamError {
	n := len(s.params)
	const (
		white = iota
		grey
		black
	)
	colour := make([]int, n)
	stack := []int{}
	s.topo = make([]int, 0, n)
	var visit func(i int) *ParamError
	visit = func(i int) *ParamError {
		switch colour[i] {
		case black:
			return nil
		case grey:
			k := slices.Index(stack, i)
			names := make([]string, 0, len(stack)-k+1)
			for _, j := range stack[k:] {
				names = append(names, s.params[j].Name)
			}
			names = append(names, s.params[i].Name)
			slices.Reverse(names) // parent → child
			return perr(s.params[i].Name, "when", "conditions form a cycle: %s", strings.Join(names, " → "))
		}
		colour[i] = grey
		stack = append(stack, i)
		for _, c := range s.conds[i] {
			if e := visit(c.parent); e != nil {
				return e
			}
		}
		stack = stack[:len(stack)-1]
		colour[i] = black
		s.topo = append(s.topo, i)
		return nil
	}
	for i := range n {
		if e := visit(i); e != nil {
			return e
		}
	}
	return nil
}

// Len returns the number of parameters, the dimension of the encoded cube.
func (s *Space) Len() int { return len(s.params) }

// Params returns a copy of the parameters in declaration order, with
// condition values in canonical form (see Format).
func (s *Space) Params() []Param {
	ps := make([]Param, len(s.params))
	for i, p := range s.params {
		ps[i] = p.clone()
	}
	return ps
}

// Param returns a copy of parameter i.
func (s *Space) Param(i int) Param { return s.params[i].clone() }

// Names returns the parameter names in declaration order.
func (s *Space) Names() []string {
	names := make([]string, len(s.params))
	for i, p := range s.params {
		names[i] = p.Name
	}
	return names
}

// Index returns the position of the named parameter.
func (s *Space) Index(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// Levels returns the number of legal values of parameter i, 0 for Float.
func (s *Space) Levels(i int) int { return s.levels[i] }

// Continuous reports whether parameter i is a Float.
func (s *Space) Continuous(i int) bool { return s.params[i].Kind == Float }

// Unordered reports whether parameter i is Categorical or Bool, whose
// values have no order.
func (s *Space) Unordered(i int) bool {
	k := s.params[i].Kind
	return k == Categorical || k == Bool
}

// Conditional reports whether parameter i has conditions.
func (s *Space) Conditional(i int) bool { return len(s.conds[i]) > 0 }

// NumFeatures returns the length of the vectors Features writes.
func (s *Space) NumFeatures() int { return s.nfeat }

// FeatureIndex returns the first feature column of parameter i; a categorical
// or Bool parameter occupies Levels(i) columns from there, any other one.
func (s *Space) FeatureIndex(i int) int { return s.feat[i] }

func (s *Space) checkLen(u []float64, fn string) {
	if len(u) != len(s.params) {
		panic(fmt.Sprintf("space: %s: point of length %d in a space of %d parameters", fn, len(u), len(s.params)))
	}
}
