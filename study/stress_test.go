package study

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// The stress test re-executes this test binary as worker processes
// (TestHelperStress) that share one study, and kills them with SIGKILL at
// random moments: in a transaction, in a suggestion, while holding the
// suggestion lease, in the middle of a batch. Then it reaps and drains the
// study and checks that no trial was lost or duplicated. (The kill between
// an interrupted trial's result and its re-queue, which this rarely hits,
// has a test of its own: TestInterruptedTrialIsNotLostWhenItsRequeueFails.)
const (
	stressURLEnv = "BOA_STUDY_STRESS_URL"
	stressIDEnv  = "BOA_STUDY_STRESS_ID"
	stressBudget = 150
	stressLease  = 400 * time.Millisecond // a trial's heartbeat lease
	stressSuggst = 300 * time.Millisecond // the suggestion lease
)

// napSampler samples at random after a nap, so that processes are killed
// while they suggest, under the suggestion lease, too.
type napSampler struct{}

func (napSampler) Name() string { return "random" }
func (napSampler) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	time.Sleep(time.Duration(rng.IntN(3)) * time.Millisecond)
	return h.Space.Sample(rng), nil
}

// TestHelperStress is one worker process; it does nothing in a normal run.
// Three goroutines ask (Ask or AskBatch) and tell until the budget is used;
// each trial is completed, failed, interrupted (re-queued), told late
// after its lease has passed, or abandoned. A fourth goroutine now and
// then holds the suggestion lease for a while, as a slow suggestion does.
// It prints "GOT id" for every trial it is handed.
func TestHelperStress(t *testing.T) {
	url := os.Getenv(stressURLEnv)
	if url == "" {
		return
	}
	id, _ := strconv.Atoi(os.Getenv(stressIDEnv))
	suggestLease = stressSuggst
	store, err := storage.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(bg, store, "stress")
	if err != nil {
		t.Fatal(err)
	}
	s.SetLease(stressLease)
	s.SetWorker(fmt.Sprintf("p%d", id))
	s.sampler = napSampler{}
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		os.Stdout.WriteString(fmt.Sprintf(format, args...) + "\n") // unbuffered: a kill loses no line
	}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() {
		rng := rand.New(rand.NewPCG(uint64(id), 99))
		for ctx.Err() == nil {
			time.Sleep(time.Duration(50+rng.IntN(150)) * time.Millisecond)
			if rng.IntN(3) > 0 {
				continue
			}
			lease, err := store.Lock(ctx, s.ID(), "hog", suggestLease)
			if err != nil {
				continue
			}
			time.Sleep(suggestLease / 2)
			lease.Unlock()
		}
	})
	for g := range 3 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(id), uint64(g)))
			for {
				var ts []Trial
				var err error
				if n := 1 + rng.IntN(3); n == 1 {
					var tr Trial
					if tr, err = s.Ask(bg); err == nil {
						ts = []Trial{tr}
					}
				} else {
					ts, err = s.AskBatch(bg, n)
				}
				for _, tr := range ts {
					say("GOT %d", tr.ID)
				}
				if errors.Is(err, ErrBudget) {
					cancel()
					return
				}
				if err != nil {
					say("ASKERR %v", err)
					time.Sleep(10 * time.Millisecond)
				}
				for _, tr := range ts {
					stressRun(s, rng, tr, say)
				}
			}
		})
	}
	wg.Wait()
}

// stressRun evaluates trial tr in one of several ways.
func stressRun(s *Study, rng *rand.Rand, tr Trial, say func(string, ...any)) {
	var r Result
	late := false
	switch p := rng.IntN(100); {
	case p < 5: // abandoned, as by a goroutine that died: reaped later
		return
	case p < 10: // no heartbeat for longer than the lease, then told
		time.Sleep(stressLease + stressLease/2)
		r, late = Result{Value: 1}, true
	case p < 20:
		r = Result{Err: fmt.Errorf("interrupted: %w", context.Canceled), Requeue: true}
	case p < 28:
		r = Result{Err: errors.New("objective failed")}
	default:
		stop := s.heartbeat(bg, tr.ID)
		time.Sleep(time.Duration(rng.IntN(20)) * time.Millisecond)
		stop()
		r = Result{Value: tr.X[0]}
	}
	err := s.Tell(bg, tr.ID, r)
	switch {
	case err == nil:
	case errors.Is(err, storage.ErrFinished):
		// Reaped meanwhile: expected of a late tell, possible for any
		// trial whose heartbeats lagged on a loaded machine.
		say("REAPED %d late=%v", tr.ID, late)
	default:
		say("TELLERR %d %v", tr.ID, err)
	}
}

// stressChild is a running worker process.
type stressChild struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when its output is read and it has exited
	err  error
}

func testStress(t *testing.T, url string, chaos time.Duration) {
	store, err := storage.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s, err := Create(bg, store, Spec{Name: "stress", Space: testSpace(t), Sampler: "random", Seed: 5, Budget: stressBudget})
	if err != nil {
		t.Fatal(err)
	}
	s.SetLease(stressLease)
	rng := rand.New(rand.NewPCG(1, 2))
	// enqueue adds a WAITING trial as boa serve's enqueue does: under the
	// suggestion lease, within the budget.
	enqueue := func() {
		lease, err := store.Lock(bg, s.ID(), "enqueue", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		defer lease.Unlock()
		if n, err := s.Remaining(bg); err != nil || n == 0 {
			return
		}
		u := s.Space().Sample(rng)
		pj, _ := json.Marshal(s.Space().Decode(u))
		if _, err := store.AddTrial(bg, storage.Trial{StudyID: s.ID(), Params: pj, X: u, State: storage.Waiting, RetryOf: -1}); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 {
		enqueue()
	}

	var (
		mu     sync.Mutex
		got    = map[int64]int{} // trial ID → times handed out
		notes  []string
		reaped int // tells refused: the trial was reaped meanwhile
	)
	start := func(id int) *stressChild {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperStress$", "-test.count=1")
		cmd.Env = append(os.Environ(), stressURLEnv+"="+url, fmt.Sprintf("%s=%d", stressIDEnv, id))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c := &stressChild{cmd: cmd, done: make(chan struct{})}
		go func() {
			defer close(c.done)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				line := sc.Text()
				mu.Lock()
				if n, ok := strings.CutPrefix(line, "GOT "); ok {
					tid, _ := strconv.ParseInt(n, 10, 64)
					got[tid]++
				} else if strings.HasPrefix(line, "REAPED ") {
					reaped++
				} else if line != "PASS" {
					notes = append(notes, fmt.Sprintf("p%d: %s", id, line))
				}
				mu.Unlock()
			}
			c.err = cmd.Wait()
		}()
		return c
	}
	const procs = 4
	children := make([]*stressChild, procs)
	next := 0
	for i := range children {
		children[i] = start(next)
		next++
	}
	kills := 0
	begin := time.Now()
	var used time.Duration // until the budget is used up
	for used == 0 && time.Since(begin) < chaos {
		time.Sleep(time.Duration(30+rng.IntN(250)) * time.Millisecond)
		i := rng.IntN(procs)
		select {
		case <-children[i].done:
			if children[i].err != nil {
				t.Errorf("worker process exited: %v", children[i].err)
			}
			// It ended by itself: the budget is used. The others end soon.
			if used == 0 {
				used = time.Since(begin)
			}
			continue
		default:
		}
		children[i].cmd.Process.Kill() // SIGKILL
		<-children[i].done
		kills++
		children[i] = start(next)
		next++
		if rng.IntN(4) == 0 {
			enqueue()
		}
	}
	for _, c := range children {
		<-c.done
		if c.err != nil {
			t.Errorf("worker process exited: %v", c.err)
		}
	}
	// All processes are gone. A drain reaps what they left RUNNING (after
	// the lease) and runs what is WAITING, until nothing is left.
	s.SetWorker("drain")
	for range 10 {
		time.Sleep(stressLease + 50*time.Millisecond)
		err := s.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) {
			mu.Lock()
			got[tr.ID]++
			mu.Unlock()
			return 0, nil
		}, 0, OptimizeOptions{Workers: 2})
		if err != nil {
			t.Fatalf("drain: %v", err)
		}
		if _, err := store.Reap(bg, s.ID(), time.Now().Add(-stressLease)); err != nil {
			t.Fatal(err)
		}
		if open := unfinished(mustRecords(t, s)); open == 0 {
			break
		}
	}
	for _, n := range notes {
		t.Log(n)
	}
	recs := mustRecords(t, s)
	t.Logf("%d processes started, %d killed, budget used after %v; %d trials, %d tells refused as reaped",
		next, kills, used.Round(time.Millisecond), len(recs), reaped)
	checkStudy(t, recs, got)
}

func unfinished(recs []storage.Trial) int {
	n := 0
	for _, r := range recs {
		if !r.State.Finished() {
			n++
		}
	}
	return n
}

// checkStudy checks what no crash may break: trial numbers 0..N-1, the
// budget used exactly, nothing left RUNNING or WAITING, no trial handed
// out twice, and every lost or interrupted configuration re-run exactly
// once (a configuration lost twice: not again).
func checkStudy(t *testing.T, recs []storage.Trial, got map[int64]int) {
	t.Helper()
	retries := map[int]int{}    // trial number → number of its re-run
	batches := map[int]string{} // batch → the worker that asked for it
	for i, r := range recs {
		if r.Number != i {
			t.Fatalf("trial at position %d has number %d", i, r.Number)
		}
		if !r.State.Finished() {
			t.Errorf("trial %d is %v after the drain", r.Number, r.State)
		}
		if n := got[r.ID]; n > 1 {
			t.Errorf("trial %d (id %d) was handed out %d times", r.Number, r.ID, n)
		}
		if r.RetryOf < 0 {
			if w, ok := batches[r.Batch]; ok && r.Batch > 0 && w != r.Worker {
				t.Errorf("batch %d was proposed to %s and %s", r.Batch, w, r.Worker)
			}
			batches[r.Batch] = r.Worker
			continue
		}
		if r.RetryOf >= r.Number {
			t.Errorf("trial %d re-runs later trial %d", r.Number, r.RetryOf)
			continue
		}
		orig := recs[r.RetryOf]
		if orig.State != storage.Failed || !(strings.HasPrefix(orig.Reason, "stale: ") || strings.HasPrefix(orig.Reason, "interrupted")) {
			t.Errorf("trial %d re-runs trial %d, which is %v %q", r.Number, orig.Number, orig.State, orig.Reason)
		}
		if string(orig.Params) != string(r.Params) || orig.Batch != r.Batch {
			t.Errorf("trial %d re-runs trial %d with params %s batch %d, want %s batch %d", r.Number, orig.Number, r.Params, r.Batch, orig.Params, orig.Batch)
		}
		if prev, dup := retries[r.RetryOf]; dup {
			t.Errorf("trial %d is re-run twice, by %d and %d", r.RetryOf, prev, r.Number)
		}
		retries[r.RetryOf] = r.Number
	}
	for _, r := range recs {
		_, rerun := retries[r.Number]
		stale := strings.HasPrefix(r.Reason, "stale: ")
		lostTwice := stale && r.RetryOf >= 0 && strings.HasPrefix(recs[r.RetryOf].Reason, "stale: ")
		switch {
		case r.State != storage.Failed:
		case strings.HasPrefix(r.Reason, "interrupted") && !rerun:
			t.Errorf("interrupted trial %d was not re-queued", r.Number)
		case stale && !lostTwice && !rerun:
			t.Errorf("lost trial %d (%s) was not re-queued", r.Number, r.Reason)
		case lostTwice && rerun:
			t.Errorf("trial %d, lost twice, was re-queued again", r.Number)
		}
	}
	if u := used(recs); u != stressBudget {
		t.Errorf("the trials use %d of the budget, want exactly %d", u, stressBudget)
	}
}

func TestStressSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("stress test")
	}
	testStress(t, "sqlite:"+filepath.Join(t.TempDir(), "stress.db"), 6*time.Second)
}

func TestStressPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("stress test")
	}
	testStress(t, storagetest.PostgresURL(t, false), 6*time.Second)
}
