package study

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/internal/proc"
	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/transform"
)

// New creates a study with the sampler o.Sampler: any Sampler value, one
// of the user's own too (its name need not be registered, as Create's
// must), or a registered one by name through sampler.New — the one way
// from Go, as Optuna's create_study(sampler=...):
//
//	st, err := study.New(sp, study.Options{Sampler: gpbo.New()})
//	smp, err := sampler.New("tpe") // a name, from a flag or a file
//	st, err := study.New(sp, study.Options{Sampler: smp, Storage: store, Name: "svm"})
//
// The study is kept in memory, or in o.Storage when it is set
// (storage.ErrExists if the name is taken there). Open reopens a stored
// study with the sampler registered under its name, as Create stores it
// (Spec.Sampler, for study files): a sampler value's own settings are not
// stored.
func New(sp *space.Space, o Options) (*Study, error) {
	name := o.Name
	if name == "" {
		name = "study"
	}
	spec := Spec{Name: name, Direction: o.Direction, Objectives: o.Objectives, Space: sp, Seed: o.Seed, Budget: o.Budget, Transform: o.Transform, Constraints: o.Constraints, Fidelity: o.Fidelity}
	if o.Sampler != nil {
		spec.Sampler = o.Sampler.Name()
	}
	store := o.Storage
	if store == nil {
		store = storage.NewMemory()
	}
	st, err := create(context.Background(), store, spec, o.Sampler)
	if err == nil {
		if o.Pruner != nil {
			st.pruner = o.Pruner
		}
		st.SetKnown(o.Known)
	}
	return st, err
}

// Create creates the study in store; storage.ErrExists if the name is taken.
func Create(ctx context.Context, store storage.Storage, spec Spec) (*Study, error) {
	return create(ctx, store, spec, nil)
}

// create is Create with the sampler instance smp (New's), or with the
// registered sampler spec.Sampler names when smp is nil.
func create(ctx context.Context, store storage.Storage, spec Spec, smp sampler.Sampler) (*Study, error) {
	if spec.Space == nil || spec.Space.Len() == 0 {
		return nil, errors.New("study: the search space has no parameters")
	}
	if spec.Budget < 0 {
		return nil, fmt.Errorf("study: budget must be 0 (no limit) or more, got %d", spec.Budget)
	}
	if spec.Sampler == "" {
		spec.Sampler = "auto"
	}
	objs, err := objectivesOf(spec)
	if err != nil {
		return nil, fmt.Errorf("study: %w", err)
	}
	spec.Direction = objs[0].Direction
	if err := checkMultiObjective(spec, objs, smp); err != nil {
		return nil, fmt.Errorf("study: %w", err)
	}
	if smp == nil {
		if err := sampler.CheckWith(spec.Sampler, spec.SamplerOptions, spec.Space); err != nil {
			return nil, fmt.Errorf("study: %w", err)
		}
	} else if c, ok := smp.(sampler.SpaceChecker); ok {
		if err := c.CheckSpace(spec.Space); err != nil {
			return nil, fmt.Errorf("study: %w", err)
		}
	}
	sp, err := json.Marshal(spec.Space)
	if err != nil {
		return nil, err
	}
	if err := CheckFidelity(spec.Fidelity, spec.Space); err != nil {
		return nil, fmt.Errorf("study: fidelity: %w", err)
	}
	spec.Pruner = withFidelity(spec.Pruner, spec.Fidelity)
	if _, err := spec.Pruner.Build(); err != nil {
		return nil, fmt.Errorf("study: pruner: %w", err)
	}
	if err := spec.Constraints.Validate(); err != nil {
		return nil, fmt.Errorf("study: %w", err)
	}
	set := settings{Transform: spec.Transform, Constraints: spec.Constraints, SamplerOptions: spec.SamplerOptions, Fidelity: spec.Fidelity}
	if len(spec.Objectives) > 0 {
		set.Objectives = storedObjectives(objs)
	}
	if !spec.Pruner.IsNone() {
		set.Pruner = &spec.Pruner
	}
	var cfg json.RawMessage
	if set.Transform != transform.None || set.Pruner != nil || len(set.Constraints) > 0 || len(set.SamplerOptions) > 0 || len(set.Objectives) > 0 || set.Fidelity != nil {
		if cfg, err = json.Marshal(set); err != nil {
			return nil, fmt.Errorf("study: %w", err) // an unknown transform
		}
	}
	rec, err := store.CreateStudy(ctx, storage.Study{
		Name: spec.Name, Direction: spec.Direction.String(), Space: sp,
		Sampler: spec.Sampler, Config: cfg, Seed: spec.Seed, Budget: spec.Budget,
	})
	if err != nil {
		return nil, err
	}
	return open(store, rec, smp)
}

// settings are the stored study's settings that storage.Study has no
// column for (its Config). A study without any stores none.
type settings struct {
	Transform   transform.Transform `json:"transform,omitempty"`
	Pruner      *pruner.Spec        `json:"pruner,omitempty"`
	Constraints constraint.Set      `json:"constraints,omitempty"`
	// SamplerOptions are Spec.SamplerOptions, which sampler.NewWith
	// applies again when the study is opened.
	SamplerOptions sampler.Options `json:"sampler_options,omitempty"`
	// Objectives are Spec.Objectives when it names them; storage.Study's
	// Direction is the first one's.
	Objectives []storedObjective `json:"objectives,omitempty"`
	Fidelity   *Fidelity         `json:"fidelity,omitempty"`
}

type storedObjective struct {
	Name      string `json:"name"`
	Direction string `json:"direction"`
}

func storedObjectives(objs []Goal) []storedObjective {
	out := make([]storedObjective, len(objs))
	for i, o := range objs {
		out[i] = storedObjective{o.Name, o.Direction.String()}
	}
	return out
}

// ObjectivesOf returns the objectives of the stored study rec: one,
// "value", in rec.Direction, when it names none.
func ObjectivesOf(rec storage.Study) ([]Goal, error) {
	set, err := settingsOf(rec)
	if err != nil {
		return nil, err
	}
	if len(set.Objectives) == 0 {
		dir, err := ParseDirection(rec.Direction)
		if err != nil {
			return nil, fmt.Errorf("study %s: %w", rec.Name, err)
		}
		return []Goal{{Name: DefaultObjective, Direction: dir}}, nil
	}
	out := make([]Goal, len(set.Objectives))
	for i, o := range set.Objectives {
		dir, err := ParseDirection(o.Direction)
		if err != nil {
			return nil, fmt.Errorf("study %s: objective %s: %w", rec.Name, o.Name, err)
		}
		out[i] = Goal{o.Name, dir}
	}
	return out, nil
}

// checkMultiObjective refuses what a study of several objectives cannot
// have: a sampler that models one objective only, a transform (fitted to
// one objective's values), and a pruner on an objective it does not have.
func checkMultiObjective(spec Spec, objs []Goal, smp sampler.Sampler) error {
	if o := spec.Pruner.Objective; o != "" && !slices.ContainsFunc(objs, func(x Goal) bool { return x.Name == o }) {
		return fmt.Errorf("pruner.objective: %q is not an objective of the study (%s)", o, objectiveNames(objs))
	}
	if len(objs) < 2 {
		return nil
	}
	if spec.Transform != transform.None {
		return fmt.Errorf("transform %s: a multi-objective study takes none (the multi-objective samplers normalise each objective themselves)", spec.Transform)
	}
	if smp == nil {
		var err error
		if smp, err = sampler.NewWith(spec.Sampler, spec.SamplerOptions); err != nil {
			return err
		}
	}
	if _, ok := smp.(sampler.MultiObjective); !ok {
		return fmt.Errorf("sampler %s optimises one objective, and the study has %d (%s); use one of the multi-objective samplers: %s", smp.Name(), len(objs), objectiveNames(objs), strings.Join(sampler.MultiObjectiveNames(), ", "))
	}
	return nil
}

func settingsOf(rec storage.Study) (settings, error) {
	var set settings
	if len(rec.Config) > 0 {
		if err := json.Unmarshal(rec.Config, &set); err != nil {
			return set, fmt.Errorf("study %s: stored settings: %w", rec.Name, err)
		}
	}
	return set, nil
}

// TransformOf returns the transform stored with study rec.
func TransformOf(rec storage.Study) (transform.Transform, error) {
	set, err := settingsOf(rec)
	return set.Transform, err
}

// PrunerOf returns the pruner stored with study rec; its Type is "" when
// the study has none.
func PrunerOf(rec storage.Study) (pruner.Spec, error) {
	set, err := settingsOf(rec)
	if err != nil || set.Pruner == nil {
		return pruner.Spec{}, err
	}
	return *set.Pruner, nil
}

// SamplerOptionsOf returns the sampler options stored with study rec;
// empty when it has none.
func SamplerOptionsOf(rec storage.Study) (sampler.Options, error) {
	set, err := settingsOf(rec)
	return set.SamplerOptions, err
}

// FidelityOf returns the fidelity stored with study rec; nil when it has
// none.
func FidelityOf(rec storage.Study) (*Fidelity, error) {
	set, err := settingsOf(rec)
	return set.Fidelity, err
}

// ConstraintsOf returns the constraints stored with study rec; empty when
// it has none.
func ConstraintsOf(rec storage.Study) (constraint.Set, error) {
	set, err := settingsOf(rec)
	return set.Constraints, err
}

// Open opens the study called name in store; storage.ErrNotFound if there
// is none. The sampler is rebuilt from the stored name and the history.
func Open(ctx context.Context, store storage.Storage, name string) (*Study, error) {
	rec, err := store.GetStudy(ctx, name)
	if err != nil {
		return nil, err
	}
	return open(store, rec, nil)
}

// open returns the stored study rec with the sampler smp, or with the one
// rec names when smp is nil.
func open(store storage.Storage, rec storage.Study, smp sampler.Sampler) (*Study, error) {
	var sp space.Space
	if err := json.Unmarshal(rec.Space, &sp); err != nil {
		return nil, fmt.Errorf("study %s: stored space: %w", rec.Name, err)
	}
	dir, err := ParseDirection(rec.Direction)
	if err != nil {
		return nil, fmt.Errorf("study %s: %w", rec.Name, err)
	}
	set, err := settingsOf(rec)
	if err != nil {
		return nil, err
	}
	if smp == nil {
		if smp, err = sampler.NewWith(rec.Sampler, set.SamplerOptions); err != nil {
			return nil, fmt.Errorf("study %s: %w", rec.Name, err)
		}
	}
	var (
		prn  pruner.Pruner
		spec pruner.Spec
	)
	if set.Pruner != nil {
		spec = *set.Pruner
		if prn, err = spec.Build(); err != nil {
			return nil, fmt.Errorf("study %s: stored pruner: %w", rec.Name, err)
		}
	}
	objs, err := ObjectivesOf(rec)
	if err != nil {
		return nil, err
	}
	st := &Study{
		store: store, rec: rec, dir: dir, objs: objs, tf: set.Transform, space: &sp, sampler: smp, pruner: prn, prnSpec: spec, cons: set.Constraints, modelled: set.Constraints, fid: set.Fidelity,
		worker: proc.Self(), lease: DefaultLease,
	}
	st.budget.Store(int64(rec.Budget))
	return st, nil
}
