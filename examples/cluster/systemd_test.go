package cluster

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/boaproc"
)

// unit is a systemd unit file: section → key → values, in order.
type unit map[string]map[string][]string

func readUnit(t *testing.T, path string) unit {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u, section, line := unit{}, "", ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(text, "#") || strings.HasPrefix(text, ";") {
			continue
		}
		if cont, ok := strings.CutSuffix(text, `\`); ok { // a continued line
			line += cont + " "
			continue
		}
		line, text = "", line+text
		switch {
		case text == "":
		case strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]"):
			section = text[1 : len(text)-1]
			u[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(text, "=")
			if !ok || section == "" {
				t.Fatalf("%s:%d: %q is not KEY=VALUE in a section", path, n, text)
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			u[section][k] = append(u[section][k], v)
		}
	}
	return u
}

// one is the only value of key in [Service].
func (u unit) one(t *testing.T, key string) string {
	t.Helper()
	if v := u["Service"][key]; len(v) == 1 {
		return v[0]
	}
	t.Fatalf("want one %s= in [Service], got %q", key, u["Service"][key])
	return ""
}

// envFile writes the example environment file named like the unit's
// EnvironmentFile= (serve.env for /etc/boa/serve.env) with the test's
// values for set, which the example must have, and returns its variables.
func envFile(t *testing.T, u unit, set map[string]string) map[string]string {
	t.Helper()
	path := u.one(t, "EnvironmentFile")
	example := filepath.Join("systemd", filepath.Base(path))
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatalf("EnvironmentFile=%s: no example %s: %v", path, example, err)
	}
	vars := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: %q is not KEY=VALUE", example, line)
		}
		vars[k] = strings.Trim(v, `"'`)
	}
	for k, v := range set {
		if _, ok := vars[k]; !ok {
			t.Errorf("%s does not set %s", example, k)
		}
		vars[k] = v
	}
	return vars
}

var (
	unitVar = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`) // within a word
	wordVar = regexp.MustCompile(`^\$([A-Za-z_][A-Za-z0-9_]*)$`)   // a word of its own
)

// execStart is the command systemd runs for ExecStart= of instance
// (systemd.service "Command lines"): specifiers replaced, words split
// at blanks outside quotes, "${VAR}" replaced within a word, and a word
// "$VAR" split into words.
func execStart(t *testing.T, u unit, name, instance string, vars map[string]string) []string {
	t.Helper()
	line := u.one(t, "ExecStart")
	host, _ := os.Hostname()
	spec := map[byte]string{'i': instance, 'I': instance, 'H': host, 'n': name, '%': "%"}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] != '%' {
			b.WriteByte(line[i])
			continue
		}
		i++
		v, ok := spec[line[min(i, len(line)-1)]]
		if !ok || i == len(line) {
			t.Fatalf("ExecStart=%s: a specifier this test does not know", line)
		}
		b.WriteString(v)
	}
	lookup := func(k string) string {
		v, ok := vars[k]
		if !ok {
			t.Errorf("ExecStart=%s: $%s is set by no EnvironmentFile= or Environment=", line, k)
		}
		return v
	}
	var argv []string
	for _, w := range splitQuoted(t, b.String()) {
		if m := wordVar.FindStringSubmatch(w); m != nil {
			argv = append(argv, strings.Fields(lookup(m[1]))...)
			continue
		}
		argv = append(argv, unitVar.ReplaceAllStringFunc(w, func(m string) string { return lookup(m[2 : len(m)-1]) }))
	}
	return argv
}

// splitQuoted splits a command line at blanks outside "..." and '...'.
func splitQuoted(t *testing.T, s string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote, in = c, true
		case quote == 0 && (c == ' ' || c == '\t'):
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			in = true
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// unitEnv is the environment of a unit's process: systemd's PATH (here
// with the test's boa) and the variables of its EnvironmentFile=.
func unitEnv(t *testing.T, vars map[string]string) []string {
	env := baseEnv(t)
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// unitBinary maps the unit's absolute path of boa to the test's binary.
func unitBinary(t *testing.T, argv []string) {
	t.Helper()
	if !filepath.IsAbs(argv[0]) || filepath.Base(argv[0]) != "boa" {
		t.Fatalf("ExecStart= runs %q, want an absolute path to boa", argv[0])
	}
	argv[0] = boaproc.Binary(t)
}

// startServeUnit runs boa-serve.service's ExecStart= with serve.env and
// returns the server's URL and token.
func startServeUnit(t *testing.T) (string, string) {
	t.Helper()
	u := readUnit(t, "systemd/boa-serve.service")
	token := randomToken(t)
	vars := envFile(t, u, map[string]string{"BOA_TOKEN": token, "BOA_STORAGE": storageURL(t)})
	argv := execStart(t, u, "boa-serve.service", "", vars)
	noSecretIn(t, argv, token, vars["BOA_STORAGE"])
	unitBinary(t, argv)
	addr := setFlag(t, argv, "--addr", "127.0.0.1:0")
	// The workers' default server is this one.
	def := envFile(t, readUnit(t, "systemd/boa-worker@.service"), nil)["BOA_SERVER"]
	if s, err := url.Parse(def); err != nil || !strings.HasSuffix(addr, ":"+s.Port()) {
		t.Errorf("boa serve --addr %s, but worker.env's BOA_SERVER is %s", addr, def)
	}
	return startServer(t, "boa-serve.service", argv, unitEnv(t, vars), "/"), token
}

// TestSystemd runs boa-serve.service and three instances of
// boa-worker@.service until the study's budget is used up.
func TestSystemd(t *testing.T) {
	boaproc.Binary(t)
	w := readUnit(t, "systemd/boa-worker@.service")
	for key, want := range map[string]string{"Restart": "on-failure", "KillMode": "mixed"} {
		if got := w.one(t, key); got != want {
			t.Errorf("boa-worker@.service: %s=%s, want %s (docs/crash-recovery.md)", key, got, want)
		}
	}
	if w.one(t, "WorkingDirectory") == "" {
		t.Error("boa-worker@.service has no WorkingDirectory, but its command is relative to the training code's folder")
	}
	srv, token := startServeUnit(t)
	name, budget := createStudy(t, srv, token)
	vars := envFile(t, w, map[string]string{"BOA_TOKEN": token, "BOA_SERVER": srv})
	var workers []*proc
	for i := 1; i <= 3; i++ {
		unitName := fmt.Sprintf("boa-worker@%d.service", i)
		argv := execStart(t, w, unitName, fmt.Sprint(i), vars)
		unitBinary(t, argv)
		if s := setFlag(t, argv, "--study", name); s != name {
			t.Errorf("boa worker --study %s, want %s of study.json", s, name)
		}
		workers = append(workers, start(t, unitName, argv, unitEnv(t, vars), repoRoot))
	}
	for _, p := range workers {
		p.wait(t, 3*time.Minute)
	}
	checkComplete(t, srv, token, name, budget)
}

// TestSystemdAnalyzeVerify lets systemd check the units: keys, values,
// sections. It reports problems on stderr and exits 0 on most of them.
func TestSystemdAnalyzeVerify(t *testing.T) {
	bin, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	dir := t.TempDir()
	for _, f := range []string{"boa-serve.service", "boa-worker@.service"} {
		data, err := os.ReadFile(filepath.Join("systemd", f))
		if err != nil {
			t.Fatal(err)
		}
		// verify wants the binary to exist.
		data = []byte(strings.ReplaceAll(string(data), "/usr/local/bin/boa", boaproc.Binary(t)))
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "verify", filepath.Join(dir, "boa-serve.service"), filepath.Join(dir, "boa-worker@1.service"))
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
