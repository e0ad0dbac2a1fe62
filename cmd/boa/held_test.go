package main

import (
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/study"
)

func TestHeldMessage(t *testing.T) {
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.Local)
	h := study.Held{Trials: []int{3, 4}, Workers: []string{"far:42:1.0a0b0c0d.1e2f3a4b.4026531836", "trainer-2"}, Until: now.Add(90 * time.Second)}
	got := heldMessage(h, "s.yaml", now)
	for _, want := range []string{"2 trials (3, 4) are still RUNNING, held by pid 42 on host far, trainer-2;",
		"boa run s.yaml --resume re-runs them after 09:01:30 ", "(in 1m30s), when their lease runs out"} {
		if !strings.Contains(got, want) {
			t.Errorf("message lacks %q:\n%s", want, got)
		}
	}
	h.Until = now.Add(-time.Second)
	if got := heldMessage(h, "s.yaml", now); !strings.Contains(got, "re-runs them now, when") {
		t.Errorf("a lease already run out: %s", got)
	}
	h.Until = now.Add(25 * time.Hour)
	if got := heldMessage(h, "s.yaml", now); !strings.Contains(got, "after 2026-12-04 10:00:00 ") {
		t.Errorf("a lease tomorrow: %s", got)
	}
	if got := trialList([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}); got != "12 trials (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, …) are" {
		t.Errorf("trialList = %q", got)
	}
}
