package server

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strconv"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/sampler/nasbowl"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// createStudy creates a study from the study file of DESIGN.md §2.2 as
// JSON, or as YAML with Content-Type application/yaml (the file boa run
// reads, errors by line), so that a client without a YAML parser can send
// the file as it is; ?name= replaces the file's name. An existing name is
// always a 409, even with an identical body: a client that means "create
// or join" reads GET /api/v1/studies/{name} first. The file's storage,
// workers and objective are not kept: the server has its own storage and
// remote workers bring their own command.
func (s *server) createStudy(w http.ResponseWriter, r *http.Request) error {
	body, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	if body == nil {
		return badRequest("the request body is empty: want the study file as a JSON object (name, space, ...)")
	}
	var cfg *config.Study
	if isYAML(r.Header.Get("Content-Type")) {
		cfg, err = config.ParseYAML(body)
	} else {
		if err := decodeJSON(body, &json.RawMessage{}); err != nil {
			return err // the same wording as the other endpoints for malformed JSON
		}
		cfg, err = config.ParseJSON(body)
	}
	if err != nil {
		return badRequest("%v", err)
	}
	if name := r.URL.Query().Get("name"); name != "" {
		cfg.Name = name
		if err := cfg.Validate(); err != nil {
			return badRequest("%v", err)
		}
	}
	if cfg.Deploy != nil {
		// The network's RAM and ROM are known before a trial runs only in
		// the process that samples with them (study.Known); this one's
		// studies are read back from the storage, which does not keep the
		// deploy block.
		return badRequest("deploy: a study with a deploy block runs with boa run (docs/tinyml.md); over HTTP, report ram_bytes, rom_bytes and xcross as metrics under constraints instead")
	}
	if cfg.Timeout > 0 {
		// A time limit is one boa run's (each run of the file); a served
		// study is asked by workers that come and go.
		return badRequest("timeout: a study's timeout is for boa run; over HTTP, give the study a budget (trials) or stop its workers (Ctrl-C, or boa worker --trials N)")
	}
	spec, err := cfg.Spec()
	if err != nil {
		return badRequest("%v", err)
	}
	st, err := study.Create(r.Context(), s.store, spec)
	if errors.Is(err, storage.ErrExists) {
		return errorf(http.StatusConflict, "study %q already exists (names are unique: GET /api/v1/studies/%s to join it, or choose another name)",
			cfg.Name, url.PathEscape(cfg.Name))
	}
	if err != nil {
		return err
	}
	rec, err := s.store.GetStudy(r.Context(), st.Name())
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/v1/studies/"+url.PathEscape(cfg.Name))
	writeJSON(w, http.StatusCreated, summarise(rec, nil))
	return nil
}

// isYAML reports whether a Content-Type names YAML (application/yaml, its
// older x- and text/ forms).
func isYAML(contentType string) bool {
	t, _, _ := mime.ParseMediaType(contentType)
	return t == "application/yaml" || t == "application/x-yaml" || t == "text/yaml"
}

func (s *server) listStudies(w http.ResponseWriter, r *http.Request) error {
	out, err := Studies(r.Context(), s.store)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// Studies is what GET /api/v1/studies answers, {"studies": [summary,
// ...]}, read from store: boa studies --json prints it, so that a script
// reads one form from the command and the API.
func Studies(ctx context.Context, store storage.Storage) (any, error) {
	all, err := store.ListStudies(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]studyJSON, 0, len(all))
	for _, st := range all {
		trials, err := store.TrialsWithoutReports(ctx, st.ID)
		if errors.Is(err, storage.ErrNotFound) {
			continue // deleted since the list was read
		}
		if err != nil {
			return nil, err
		}
		out = append(out, summarise(st, trials))
	}
	return map[string][]studyJSON{"studies": out}, nil
}

// load reads the stored study named in the path and its trials.
func (s *server) load(r *http.Request) (storage.Study, []storage.Trial, error) {
	name := r.PathValue("name")
	st, err := s.store.GetStudy(r.Context(), name)
	if errors.Is(err, storage.ErrNotFound) {
		return st, nil, errorf(http.StatusNotFound, "study %q not found", name)
	}
	if err != nil {
		return st, nil, err
	}
	trials, err := s.store.Trials(r.Context(), st.ID)
	return st, trials, err
}

func (s *server) getStudy(w http.ResponseWriter, r *http.Request) error {
	st, trials, err := s.load(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, summarise(st, trials))
	return nil
}

// patchRequest changes a study: its budget, as --resume --trials does.
type patchRequest struct {
	Trials *int `json:"trials"`
}

// patchStudy sets a study's budget ("run 30, look, run 20 more") through
// the process's cached study, so that its own asks see it at once.
func (s *server) patchStudy(w http.ResponseWriter, r *http.Request) error {
	var req patchRequest
	if err := s.decode(w, r, &req, false); err != nil {
		return err
	}
	if req.Trials == nil {
		return badRequest("trials: missing; want {\"trials\": N} (0: no budget)")
	}
	if *req.Trials < 0 {
		return badRequest("trials: must be 0 (no budget) or more, got %d", *req.Trials)
	}
	e, err := s.studies.byName(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	if err := e.st.SetBudget(r.Context(), *req.Trials); err != nil {
		return err
	}
	return s.getStudy(w, r)
}

func (s *server) trials(w http.ResponseWriter, r *http.Request) error {
	st, trials, err := s.load(r)
	if err != nil {
		return err
	}
	sp := spaceOf(st)
	out := make([]trialJSON, len(trials))
	for i, t := range trials {
		out[i] = toTrialJSON(sp, t)
	}
	writeJSON(w, http.StatusOK, map[string][]trialJSON{"trials": out})
	return nil
}

func (s *server) best(w http.ResponseWriter, r *http.Request) error {
	st, trials, err := s.load(r)
	if err != nil {
		return err
	}
	sum := study.Summarize(objectives(st), trials)
	if sum.Best < 0 {
		return errorf(http.StatusNotFound, "study %q has %s", st.Name, sum.NoBest())
	}
	b := sum.Best
	writeJSON(w, http.StatusOK, toTrialJSON(spaceOf(st), trials[b]))
	return nil
}

// motifs answers NAS-BOWL's motif scores for a study whose space is an
// architecture cell (boa motifs; docs/nasbowl.md): the motifs found in
// more than min_trials completed trials (default 10), most helpful first.
func (s *server) motifs(w http.ResponseWriter, r *http.Request) error {
	minTrials := 10
	if v := r.URL.Query().Get("min_trials"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return badRequest("min_trials: %q is not a whole number ≥ 0", v)
		}
		minTrials = n
	}
	e, err := s.studies.byName(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	nas := nasbowl.New()
	if err := nas.CheckSpace(e.st.Space()); err != nil {
		return badRequest("study %q: %v", e.st.Name(), err)
	}
	h, err := e.st.History(r.Context())
	if err != nil {
		return err
	}
	if len(h.Observed) < 2 {
		return errorf(http.StatusNotFound, "study %q has %d COMPLETE trials; motif scores need at least 2", e.st.Name(), len(h.Observed))
	}
	ms, err := nas.Motifs(h, minTrials)
	if err != nil {
		return err
	}
	if ms == nil {
		ms = []nasbowl.Motif{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"motifs": ms})
	return nil
}

type enqueueRequest struct {
	Params map[string]json.RawMessage `json:"params"`
}

// enqueue adds a configuration chosen by the user as a WAITING trial,
// which the next ask hands out before any new suggestion. It counts
// against the budget, so it is refused once the budget is used up.
func (s *server) enqueue(w http.ResponseWriter, r *http.Request) error {
	var req enqueueRequest
	if err := s.decode(w, r, &req, false); err != nil {
		return err
	}
	if req.Params == nil {
		return badRequest("params: missing; want {\"params\": {\"name\": value, ...}}")
	}
	e, err := s.studies.byName(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	sp := e.st.Space()
	a := make(space.Assignment, len(req.Params))
	for k, raw := range req.Params {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return badRequest("params.%s: %v", k, err)
		}
		a[k] = v
	}
	canon, err := sp.Canonical(a)
	if err != nil {
		return badRequest("params do not fit the space of study %q: %v", e.st.Name(), err)
	}
	t, err := e.st.Enqueue(r.Context(), canon)
	if errors.Is(err, study.ErrBudget) {
		return errorf(http.StatusConflict, "study %q has used its budget of %d trials; no trial can be added (raise it with PATCH /api/v1/studies/%s {\"trials\": N})",
			e.st.Name(), e.st.Budget(), url.PathEscape(e.st.Name()))
	}
	if err != nil {
		return err
	}
	rec, err := s.store.GetTrial(r.Context(), t.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, toTrialJSON(sp, rec))
	return nil
}
