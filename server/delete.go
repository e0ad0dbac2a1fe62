package server

import (
	"errors"
	"net/http"

	"github.com/boaopt/boa/storage"
)

// deleteStudy removes a study with its trials (boa delete). It answers
// 200 with the name and how many trials went with it, so that a script
// can log what it removed; an unknown name is a 404, also when the study
// was deleted by the caller's earlier attempt whose answer was lost.
// Workers still running its trials get 404s on their next tell or
// heartbeat, and stop.
func (s *server) deleteStudy(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("name")
	st, err := s.store.GetStudy(r.Context(), name)
	if errors.Is(err, storage.ErrNotFound) {
		return errorf(http.StatusNotFound, "study %q not found", name)
	}
	if err != nil {
		return err
	}
	trials, err := s.store.TrialsWithoutReports(r.Context(), st.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	err = s.store.DeleteStudy(r.Context(), name)
	if errors.Is(err, storage.ErrNotFound) {
		return errorf(http.StatusNotFound, "study %q not found", name)
	}
	if err != nil {
		return err
	}
	s.studies.forget(name)
	s.snaps.forget(name)
	writeJSON(w, http.StatusOK, map[string]any{"deleted": name, "trials": len(trials)})
	return nil
}
