package cluster

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/boaproc"
	"go.yaml.in/yaml/v3"
)

// The subset of the Kubernetes API the manifests use. Decoding is strict,
// so a misspelt field (which kubectl would refuse) fails the test; a new
// field in a manifest needs a line here.
type (
	meta struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	}
	deployment struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   meta   `yaml:"metadata"`
		Spec       struct {
			Replicas int `yaml:"replicas"`
			Selector struct {
				MatchLabels map[string]string `yaml:"matchLabels"`
			} `yaml:"selector"`
			Template podTemplate `yaml:"template"`
		} `yaml:"spec"`
	}
	service struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   meta   `yaml:"metadata"`
		Spec       struct {
			Selector map[string]string `yaml:"selector"`
			Ports    []struct {
				Name       string `yaml:"name"`
				Port       int    `yaml:"port"`
				TargetPort any    `yaml:"targetPort"` // a number or a container port's name
			} `yaml:"ports"`
		} `yaml:"spec"`
	}
	job struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Metadata   meta   `yaml:"metadata"`
		Spec       struct {
			Parallelism  int         `yaml:"parallelism"`
			BackoffLimit int         `yaml:"backoffLimit"`
			Template     podTemplate `yaml:"template"`
		} `yaml:"spec"`
	}
	podTemplate struct {
		Metadata meta `yaml:"metadata"`
		Spec     struct {
			RestartPolicy                 string      `yaml:"restartPolicy"`
			ShareProcessNamespace         bool        `yaml:"shareProcessNamespace"`
			TerminationGracePeriodSeconds int         `yaml:"terminationGracePeriodSeconds"`
			Containers                    []container `yaml:"containers"`
		} `yaml:"spec"`
	}
	container struct {
		Name       string   `yaml:"name"`
		Image      string   `yaml:"image"`
		WorkingDir string   `yaml:"workingDir"`
		Command    []string `yaml:"command"`
		Args       []string `yaml:"args"`
		Env        []struct {
			Name      string `yaml:"name"`
			Value     string `yaml:"value"`
			ValueFrom *struct {
				SecretKeyRef *struct {
					Name string `yaml:"name"`
					Key  string `yaml:"key"`
				} `yaml:"secretKeyRef"`
			} `yaml:"valueFrom"`
		} `yaml:"env"`
		Ports []struct {
			Name          string `yaml:"name"`
			ContainerPort int    `yaml:"containerPort"`
		} `yaml:"ports"`
		ReadinessProbe *struct {
			HTTPGet struct {
				Path string `yaml:"path"`
				Port any    `yaml:"port"`
			} `yaml:"httpGet"`
			PeriodSeconds int `yaml:"periodSeconds"`
		} `yaml:"readinessProbe"`
	}
)

// readManifests decodes the documents of path strictly, by kind.
func readManifests(t *testing.T, path string) (deps []deployment, svcs []service, jobs []job) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	strict := func(n *yaml.Node, v any) {
		b, err := yaml.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		d := yaml.NewDecoder(bytes.NewReader(b))
		d.KnownFields(true)
		if err := d.Decode(v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	d := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := d.Decode(&n); errors.Is(err, io.EOF) {
			return
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var head struct {
			Kind string `yaml:"kind"`
		}
		if err := n.Decode(&head); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		switch head.Kind {
		case "Deployment":
			var v deployment
			strict(&n, &v)
			deps = append(deps, v)
		case "Service":
			var v service
			strict(&n, &v)
			svcs = append(svcs, v)
		case "Job":
			var v job
			strict(&n, &v)
			jobs = append(jobs, v)
		default:
			t.Fatalf("%s: a %q, which this test does not know", path, head.Kind)
		}
	}
}

// secretFromREADME is the Secret README.md creates with `kubectl create
// secret generic NAME --from-literal=KEY=...`: its name and keys.
func secretFromREADME(t *testing.T) (string, []string) {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`kubectl create secret generic (\S+)(.*)`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no `kubectl create secret generic NAME --from-literal=KEY=VALUE ...`")
	}
	var keys []string
	for _, k := range regexp.MustCompile(`--from-literal=(\w+)=`).FindAllSubmatch(m[2], -1) {
		keys = append(keys, string(k[1]))
	}
	return string(m[1]), keys
}

var k8sVar = regexp.MustCompile(`\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// podCommand is what the kubelet runs for c: command and args with
// $(VAR) expanded from the container's env, whose secretKeyRefs are read
// from secrets, and the environment it gets.
func podCommand(t *testing.T, c container, secrets map[string]map[string]string) (argv, env []string) {
	t.Helper()
	vars := map[string]string{}
	expand := func(s string) string {
		out := k8sVar.ReplaceAllStringFunc(s, func(m string) string {
			if m == "$$" {
				return "$"
			}
			name := m[2 : len(m)-1]
			v, ok := vars[name]
			if !ok {
				// The kubelet would pass "$(NAME)" on as it is.
				t.Errorf("container %s: $(%s) is not a variable of its env", c.Name, name)
			}
			return v
		})
		return out
	}
	env = baseEnv(t)
	for _, e := range c.Env {
		v := expand(e.Value)
		if e.ValueFrom != nil {
			ref := e.ValueFrom.SecretKeyRef
			if ref == nil {
				t.Fatalf("container %s: env %s: only secretKeyRef is known to this test", c.Name, e.Name)
			}
			var ok bool
			if v, ok = secrets[ref.Name][ref.Key]; !ok {
				t.Fatalf("container %s: env %s reads key %q of Secret %q, which README.md does not create", c.Name, e.Name, ref.Key, ref.Name)
			}
		}
		vars[e.Name] = v
		env = append(env, e.Name+"="+v)
	}
	for _, a := range append(append([]string(nil), c.Command...), c.Args...) {
		argv = append(argv, expand(a))
	}
	if len(argv) == 0 || argv[0] != "boa" {
		t.Fatalf("container %s runs %q, want boa from the image's PATH", c.Name, argv)
	}
	return argv, env
}

// tokenFromSecret checks that c reads BOA_TOKEN from the Secret, never
// from a value written in the manifest.
func tokenFromSecret(t *testing.T, c container) {
	t.Helper()
	for _, e := range c.Env {
		if e.Name == "BOA_TOKEN" && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			return
		}
	}
	t.Errorf("container %s does not take BOA_TOKEN from a Secret", c.Name)
}

func randomToken(t *testing.T) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// TestKubernetes runs the Deployment's replicas of boa serve on one
// storage, probes them as the kubelet does, creates the study and runs
// the Job's parallelism workers, as the Service would, spread over the
// replicas, until the study's budget is used up.
func TestKubernetes(t *testing.T) {
	boaproc.Binary(t)
	deps, svcs, _ := readManifests(t, "kubernetes/boa-serve.yaml")
	_, _, jobs := readManifests(t, "kubernetes/boa-worker.yaml")
	if len(deps) != 1 || len(svcs) != 1 || len(jobs) != 1 {
		t.Fatalf("want one Deployment and one Service in boa-serve.yaml, one Job in boa-worker.yaml; got %d, %d, %d", len(deps), len(svcs), len(jobs))
	}
	dep, svc, job := deps[0], svcs[0], jobs[0]

	// The Deployment, its Service and the probe fit together.
	pod := dep.Spec.Template
	if dep.Spec.Replicas < 2 {
		t.Errorf("Deployment replicas %d, want 2 or more (boa serve is stateless)", dep.Spec.Replicas)
	}
	for k, v := range dep.Spec.Selector.MatchLabels {
		if pod.Metadata.Labels[k] != v {
			t.Errorf("the Deployment's selector %s=%s does not match its pods' labels %v", k, v, pod.Metadata.Labels)
		}
	}
	for k, v := range svc.Spec.Selector {
		if pod.Metadata.Labels[k] != v {
			t.Errorf("the Service's selector %s=%s does not match the server pods' labels %v", k, v, pod.Metadata.Labels)
		}
	}
	if len(pod.Spec.Containers) != 1 || len(svc.Spec.Ports) != 1 {
		t.Fatalf("want one server container and one Service port")
	}
	srv := pod.Spec.Containers[0]
	tokenFromSecret(t, srv)
	containerPort := func(p any) int {
		for _, cp := range srv.Ports {
			if p == cp.Name || p == cp.ContainerPort {
				return cp.ContainerPort
			}
		}
		t.Fatalf("port %v is not a port of container %s", p, srv.Name)
		return 0
	}
	port := containerPort(svc.Spec.Ports[0].TargetPort)
	if srv.ReadinessProbe == nil || srv.ReadinessProbe.HTTPGet.Path != "/healthz" {
		t.Fatalf("the server has no readiness probe on GET /healthz")
	}
	probePort := containerPort(srv.ReadinessProbe.HTTPGet.Port)

	secretName, keys := secretFromREADME(t)
	token, storage := randomToken(t), storageURL(t)
	secret := map[string]string{}
	for _, k := range keys {
		secret[k] = "unused-" + k
	}
	secret["token"], secret["storage"] = token, storage
	if len(secret) != len(keys) {
		t.Fatalf("README.md's Secret %s has keys %v, want token and storage", secretName, keys)
	}
	secrets := map[string]map[string]string{secretName: secret}

	var urls []string
	for i := range dep.Spec.Replicas {
		argv, env := podCommand(t, srv, secrets)
		noSecretIn(t, argv, token, storage)
		if addr := setFlag(t, argv, "--addr", "127.0.0.1:0"); addr != fmt.Sprintf("0.0.0.0:%d", port) {
			t.Errorf("boa serve --addr %s, want 0.0.0.0:%d, the port the Service sends to", addr, port)
		}
		u := startServer(t, fmt.Sprintf("replica %d", i), argv, env, repoRoot)
		// The kubelet's probe: the same port (port 0 here), no token.
		if probePort != port {
			t.Errorf("the probe checks port %d, boa serve listens on %d", probePort, port)
		}
		resp, err := http.Get(u + srv.ReadinessProbe.HTTPGet.Path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("readiness probe of replica %d: %s", i, resp.Status)
		}
		urls = append(urls, u)
	}
	name, budget := createStudy(t, urls[0], token)

	// The Job: each pod one worker; the Service spreads them over the replicas.
	wpod := job.Spec.Template.Spec
	if job.Spec.Parallelism < 2 {
		t.Errorf("Job parallelism %d, want several workers", job.Spec.Parallelism)
	}
	if p := wpod.RestartPolicy; p != "OnFailure" && p != "Never" {
		t.Errorf("Job restartPolicy %q: a Job's pods need OnFailure or Never", p)
	}
	// boa worker gives its command 5 s after SIGTERM, then tells the trial.
	if g := wpod.TerminationGracePeriodSeconds; g <= 5 {
		t.Errorf("terminationGracePeriodSeconds %d, want more than the 5 s boa worker gives its command", g)
	}
	if len(wpod.Containers) != 1 {
		t.Fatalf("want one worker container, got %d", len(wpod.Containers))
	}
	wc := wpod.Containers[0]
	tokenFromSecret(t, wc)
	if !wpod.ShareProcessNamespace && wc.Command[0] != "tini" {
		t.Error("the worker pod has no init to reap orphans: want shareProcessNamespace: true or tini")
	}
	serviceURL := "http://" + svc.Metadata.Name + ":" + strconv.Itoa(svc.Spec.Ports[0].Port)
	var workers []*proc
	for i := range job.Spec.Parallelism {
		argv, env := podCommand(t, wc, secrets)
		if s := setFlag(t, argv, "--server", urls[i%len(urls)]); s != serviceURL {
			t.Errorf("boa worker --server %s, want the Service, %s", s, serviceURL)
		}
		if s := setFlag(t, argv, "--study", name); s != name {
			t.Errorf("boa worker --study %s, want %s of study.json", s, name)
		}
		if wc.WorkingDir == "" {
			t.Error("the worker has no workingDir, but its command is relative to the training code's folder")
		}
		workers = append(workers, start(t, fmt.Sprintf("worker pod %d", i), argv, env, repoRoot))
	}
	for _, w := range workers {
		w.wait(t, 3*time.Minute)
	}
	checkComplete(t, urls[len(urls)-1], token, name, budget)
}
