package storagetest

import (
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

// testDeleteStudy: a deleted study and everything of it is gone, its
// neighbour is untouched, and its name and (not) its ids can be used again.
func testDeleteStudy(t *testing.T, s storage.Storage) {
	wantErr(t, "DeleteStudy unknown", s.DeleteStudy(ctx(t), "nope"), storage.ErrNotFound)
	a := NewStudy(t, s, "a")
	b := NewStudy(t, s, "b")
	var ids []int64
	for i := range 3 {
		ids = append(ids, add(t, s, a.ID, storage.Running, i).ID)
	}
	if err := s.Report(ctx(t), ids[0], 1, 0.5); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTrial(ctx(t), ids[1], storage.Finish{State: storage.Failed, Reason: "x", Requeue: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutState(ctx(t), a.ID, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	lease, err := s.Lock(ctx(t), a.ID, "h", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	keep := add(t, s, b.ID, storage.Waiting, 7)
	if err := s.PutState(ctx(t), b.ID, "k", []byte("b")); err != nil {
		t.Fatal(err)
	}

	if err := s.DeleteStudy(ctx(t), "a"); err != nil {
		t.Fatalf("DeleteStudy(a): %v", err)
	}
	wantErr(t, "DeleteStudy twice", s.DeleteStudy(ctx(t), "a"), storage.ErrNotFound)
	_, err = s.GetStudy(ctx(t), "a")
	wantErr(t, "GetStudy after delete", err, storage.ErrNotFound)
	_, err = s.Trials(ctx(t), a.ID)
	wantErr(t, "Trials after delete", err, storage.ErrNotFound)
	_, err = s.GetTrial(ctx(t), ids[0])
	wantErr(t, "GetTrial after delete", err, storage.ErrNotFound)
	_, err = s.GetState(ctx(t), a.ID, "k")
	wantErr(t, "GetState after delete", err, storage.ErrNotFound)
	_, err = s.AddTrial(ctx(t), storage.Trial{StudyID: a.ID, RetryOf: -1})
	wantErr(t, "AddTrial after delete", err, storage.ErrNotFound)
	if err := lease.Unlock(); err == nil {
		t.Error("Unlock of a deleted study's lease succeeded")
	}
	if list, err := s.ListStudies(ctx(t)); err != nil || len(list) != 1 || list[0].ID != b.ID {
		t.Errorf("ListStudies after delete = %+v, %v; want [b]", list, err)
	}
	if tr, err := s.Trials(ctx(t), b.ID); err != nil || len(tr) != 1 || tr[0].ID != keep.ID {
		t.Errorf("Trials(b) after deleting a = %+v, %v", tr, err)
	}
	if v, err := s.GetState(ctx(t), b.ID, "k"); err != nil || string(v) != "b" {
		t.Errorf("GetState(b) after deleting a = %q, %v", v, err)
	}

	again := NewStudy(t, s, "a")
	if again.ID == a.ID {
		t.Errorf("the re-created study reuses id %d", a.ID)
	}
	tr := add(t, s, again.ID, storage.Waiting, 0)
	if tr.Number != 0 {
		t.Errorf("first trial of the re-created study is number %d, want 0", tr.Number)
	}
	for _, id := range ids {
		if tr.ID == id {
			t.Errorf("the re-created study's trial reuses id %d", id)
		}
	}
}
