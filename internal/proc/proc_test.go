package proc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func linux(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("process start times are read on Linux only")
	}
}

func TestSelfIsAlive(t *testing.T) {
	linux(t)
	me := Self()
	id, ok := Parse(me)
	if !ok || id.PID != os.Getpid() || id.Start == 0 {
		t.Fatalf("Self() = %q, parsed %+v, %v", me, id, ok)
	}
	if got := Of(me); got != Alive {
		t.Errorf("Of(Self()) = %v, want alive", got)
	}
	if id.String() != me {
		t.Errorf("String(Parse(%q)) = %q", me, id.String())
	}
}

// A child that has exited and been waited for is gone: provably dead.
func TestExitedChildIsDead(t *testing.T) {
	linux(t)
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	me, _ := Parse(Self())
	start, found, err := probe(cmd.Process.Pid)
	if err != nil || !found {
		t.Fatalf("probe(running child) = %v, %v, %v", start, found, err)
	}
	child := me
	child.PID, child.Start = cmd.Process.Pid, start
	if got := Of(child.String()); got != Alive {
		t.Errorf("running child: %v, want alive", got)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if got := Of(child.String()); got != Dead {
		t.Errorf("killed and waited-for child: %v, want dead", got)
	}
}

// A zombie (killed, not yet waited for) is dead too: a kill -9'd boa run
// whose parent shell has not reaped it holds no trial.
func TestZombieIsDead(t *testing.T) {
	linux(t)
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer cmd.Wait()
	start, _, _ := probe(cmd.Process.Pid)
	_ = cmd.Process.Kill()
	me, _ := Parse(Self())
	me.PID, me.Start = cmd.Process.Pid, start
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if Of(me.String()) == Dead { // once the kernel has made it a zombie
			return
		}
	}
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/stat")
	t.Errorf("killed child not dead: %s", b)
}

// This process's pid with another start time is a reused pid: its first
// owner is gone.
func TestReusedPIDIsDead(t *testing.T) {
	linux(t)
	id, _ := Parse(Self())
	id.Start++
	if got := Of(id.String()); got != Dead {
		t.Errorf("Of(start time + 1) = %v, want dead", got)
	}
}

func TestNotProvable(t *testing.T) {
	linux(t)
	me, _ := Parse(Self())
	host, _ := os.Hostname()
	edit := func(f func(*ID)) string { id := me; id.Start++; f(&id); return id.String() }
	for name, s := range map[string]string{
		"old host:pid":      host + ":" + strconv.Itoa(os.Getpid()+1),
		"server's":          "http:127.0.0.1:5555",
		"user's name":       "trainer-3",
		"another host":      edit(func(id *ID) { id.Host += "-other" }),
		"another machine":   edit(func(id *ID) { id.Machine = flip(id.Machine); id.Boot = flip(id.Boot) }),
		"another container": edit(func(id *ID) { id.PIDNS = "1" }),
		"unknown boot":      edit(func(id *ID) { id.Boot = "-" }),
	} {
		if got := Of(s); got != Unknown {
			t.Errorf("%s %q: %v, want unknown", name, s, got)
		}
	}
}

func TestStatus(t *testing.T) {
	me := ID{Host: "h", PID: 1, Start: 5, Boot: "aaaaaaaa", Machine: "mmmmmmmm", PIDNS: "7"}
	alive := func(int) (uint64, bool, error) { return 5, true, nil }
	gone := func(int) (uint64, bool, error) { return 0, false, nil }
	for _, c := range []struct {
		name  string
		id    ID
		probe func(int) (uint64, bool, error)
		want  Status
	}{
		{"running", me, alive, Alive},
		{"exited", me, gone, Dead},
		{"pid reused", ID{Host: "h", PID: 1, Start: 4, Boot: me.Boot, Machine: me.Machine, PIDNS: "7"}, alive, Dead},
		{"rebooted since", ID{Host: "h", PID: 1, Start: 5, Boot: "bbbbbbbb", Machine: me.Machine, PIDNS: "7"}, alive, Dead},
		{"rebooted, no machine id", ID{Host: "h", PID: 1, Start: 5, Boot: "bbbbbbbb", Machine: "-", PIDNS: "7"}, gone, Unknown},
		{"no machine id, same boot", ID{Host: "h", PID: 1, Start: 5, Boot: me.Boot, Machine: "-", PIDNS: "7"}, gone, Dead},
		{"another machine", ID{Host: "h", PID: 1, Start: 5, Boot: "bbbbbbbb", Machine: "nnnnnnnn", PIDNS: "7"}, gone, Unknown},
		{"another pid namespace", ID{Host: "h", PID: 1, Start: 5, Boot: me.Boot, Machine: me.Machine, PIDNS: "8"}, gone, Unknown},
		{"probe failed", me, func(int) (uint64, bool, error) { return 0, false, os.ErrPermission }, Unknown},
	} {
		if got := status(c.id, me, c.probe); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, s := range []string{"", "h:1", "h:x:1.a.b.c", ":1:1.a.b.c", "h:1:1.a.b", "h:-1:1.a.b.c", "h:1:x.a.b.c"} {
		if _, ok := Parse(s); ok {
			t.Errorf("Parse(%q) ok", s)
		}
	}
	if got := Describe("h:42:1.a.b.c"); got != "pid 42 on host h" {
		t.Errorf("Describe = %q", got)
	}
	if got := Describe("h:42"); got != "h:42" {
		t.Errorf("Describe(old) = %q", got)
	}
	for in, want := range map[string]string{"h:42:1.a.b.c": "h:42", "h:42": "h:42", "http:127.0.0.1:5": "http:127.0.0.1:5"} {
		if got := Short(in); got != want {
			t.Errorf("Short(%q) = %q, want %q", in, got, want)
		}
	}
}

func flip(hex string) string {
	if hex == "-" {
		return "ffffffff"
	}
	return strings.Map(func(r rune) rune {
		if r == '0' {
			return '1'
		}
		return '0'
	}, hex)
}
