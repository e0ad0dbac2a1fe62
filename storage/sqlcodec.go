package storage

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Column encodings shared by the SQL back-ends. Empty values are NULL so
// that nil and empty read back the same way on every back-end.

func rawArg(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

func rawCol(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return json.RawMessage(b)
}

// xArg writes X as a JSON array with the shortest decimal that parses back
// to the same float64, so points round-trip bit for bit.
func xArg(x []float64) any {
	if x == nil {
		return nil
	}
	b := make([]byte, 0, 2+20*len(x))
	b = append(b, '[')
	for i, v := range x {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	return string(append(b, ']'))
}

func xCol(b []byte) ([]float64, error) {
	if b == nil {
		return nil, nil
	}
	// A hand-rolled parse: Trials decodes one X per row, and encoding/json
	// is several times slower for plain number arrays.
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return nil, fmt.Errorf("storage: malformed X column %.40q", b)
	}
	body := b[1 : len(b)-1]
	x := make([]float64, 0, 8)
	for start := 0; start < len(body); {
		end := start
		for end < len(body) && body[end] != ',' {
			end++
		}
		v, err := strconv.ParseFloat(string(body[start:end]), 64)
		if err != nil {
			return nil, fmt.Errorf("storage: malformed X column: %w", err)
		}
		x = append(x, v)
		start = end + 1
	}
	return x, nil
}

func mapArg[V any](m map[string]V) (any, error) {
	if len(m) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// metricsCol decodes a metrics column. Metrics are written by json.Marshal
// of a map[string]float64, so nearly always a flat object of plain keys and
// numbers; that shape is parsed directly (encoding/json costs a tenth of a
// 20,000-trial load), anything else goes through encoding/json.
func metricsCol(b []byte) (map[string]float64, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if m, ok := flatNumbers(b); ok {
		return m, nil
	}
	return mapCol[float64](b)
}

// flatNumbers parses {"k":number,...} without escapes or spaces; ok is false
// for anything else.
func flatNumbers(b []byte) (map[string]float64, bool) {
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, false
	}
	m := make(map[string]float64, 4)
	for i := 1; i < len(b)-1; {
		if b[i] != '"' {
			return nil, false
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				return nil, false
			}
			j++
		}
		if j+1 >= len(b) || b[j+1] != ':' {
			return nil, false
		}
		key := string(b[i+1 : j])
		k := j + 2
		for k < len(b)-1 && b[k] != ',' {
			k++
		}
		v, err := strconv.ParseFloat(string(b[j+2:k]), 64)
		if err != nil {
			return nil, false
		}
		m[key] = v
		i = k + 1
		if k == len(b)-1 {
			break
		}
	}
	return m, true
}

func mapCol[V any](b []byte) (map[string]V, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var m map[string]V
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("storage: malformed JSON column: %w", err)
	}
	return m, nil
}

func floatArg(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// boolArg writes a verdict as 1 or 0, nil as NULL: an integer column reads
// the same in both SQL dialects.
func boolArg(b *bool) any {
	switch {
	case b == nil:
		return nil
	case *b:
		return int64(1)
	}
	return int64(0)
}

func timeArg(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMicro()
}

func timeCol(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMicro(v.Int64).UTC()
}

// The columns every trial query selects, in scanTrial's order.
const trialCols = `t.id, t.study_id, t.number, t.params, t.x, t.state, t.value, t.metrics,
	t.reason, t.worker, t.log_path, t.retry_of, t.batch, t.origin, t.created_us, t.started_us, t.finished_us, t.heartbeat_us, t.feasible, t.objective_values`

// trialScanner scans trial rows; one is reused for all rows of a query so
// the destination list and the scratch buffers for X and metrics (parsed
// straight away, never kept) are allocated once, not per row.
type trialScanner struct {
	t                                     Trial
	params                                []byte
	x, metrics, values                    sql.RawBytes
	state                                 string
	value                                 sql.NullFloat64
	created, started, finished, heartbeat sql.NullInt64
	feasible                              sql.NullInt64
	dest                                  []any
}

func newTrialScanner() *trialScanner {
	c := &trialScanner{}
	c.dest = []any{&c.t.ID, &c.t.StudyID, &c.t.Number, &c.params, &c.x, &c.state, &c.value, &c.metrics,
		&c.t.Reason, &c.t.Worker, &c.t.LogPath, &c.t.RetryOf, &c.t.Batch, &c.t.Origin, &c.created, &c.started, &c.finished, &c.heartbeat, &c.feasible, &c.values}
	return c
}

func (c *trialScanner) scan(r interface{ Scan(...any) error }) (Trial, error) {
	c.t, c.params = Trial{}, nil
	if err := r.Scan(c.dest...); err != nil {
		return Trial{}, err
	}
	t := c.t
	var err error
	if t.State, err = ParseState(c.state); err != nil {
		return Trial{}, err
	}
	if c.x != nil { // RawBytes is nil for NULL
		if t.X, err = xCol(c.x); err != nil {
			return Trial{}, err
		}
	}
	if c.values != nil {
		if t.Values, err = xCol(c.values); err != nil {
			return Trial{}, err
		}
	}
	if t.Metrics, err = metricsCol(c.metrics); err != nil {
		return Trial{}, err
	}
	t.Params = rawCol(c.params)
	if c.value.Valid {
		v := c.value.Float64
		t.Value = &v
	}
	if c.feasible.Valid {
		f := c.feasible.Int64 == 1
		t.Feasible = &f
	}
	t.Created, t.Started, t.Finished, t.Heartbeat = timeCol(c.created), timeCol(c.started), timeCol(c.finished), timeCol(c.heartbeat)
	return t, nil
}

const studyCols = `id, name, direction, space, sampler, config, seed, budget, attrs, created_us`

func scanStudy(r interface{ Scan(...any) error }) (Study, error) {
	var (
		s                    Study
		space, config, attrs []byte
		seed                 int64
		created              sql.NullInt64
	)
	if err := r.Scan(&s.ID, &s.Name, &s.Direction, &space, &s.Sampler, &config, &seed, &s.Budget, &attrs, &created); err != nil {
		return Study{}, err
	}
	var err error
	if s.Attrs, err = mapCol[string](attrs); err != nil {
		return Study{}, err
	}
	s.Space, s.Config = rawCol(space), rawCol(config)
	s.Seed = uint64(seed) // stored bit-for-bit in a signed 64-bit column
	s.Created = timeCol(created)
	return s, nil
}
