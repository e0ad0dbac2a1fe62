package storage

import "context"

// touch stamps t as changed now (TrialsChangedSince); m.mu must be held.
func (m *Memory) touch(t *Trial) {
	m.lastSeq[t.StudyID]++
	m.seq[t.ID] = m.lastSeq[t.StudyID]
}

func (m *Memory) TrialsChangedSince(ctx context.Context, studyID int64, after int64) ([]Trial, int64, error) {
	if err := m.lock(ctx); err != nil {
		return nil, 0, err
	}
	defer m.mu.Unlock()
	if _, err := m.study(studyID); err != nil {
		return nil, 0, err
	}
	ids := m.ofStudy[studyID-1]
	out := []Trial{}
	if after <= 0 {
		out = make([]Trial, 0, len(ids)) // a first read takes them all
	}
	for _, id := range ids {
		if m.seq[id] > after {
			t := *m.trials[id-1]
			t.Reports = nil
			out = append(out, cloneTrial(t))
		}
	}
	return out, m.lastSeq[studyID], nil
}
