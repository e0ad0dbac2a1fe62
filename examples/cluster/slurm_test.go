package cluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/boaproc"
)

// TestSlurm runs the sbatch script with bash as three tasks of its array
// would run, against boa-serve.service, until the study's budget is used up.
func TestSlurm(t *testing.T) {
	boaproc.Binary(t)
	const script = "slurm/boa-worker.sbatch"
	data, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^#SBATCH .*--array=\d`).Match(data) {
		t.Errorf("%s has no #SBATCH --array", script)
	}
	m := regexp.MustCompile(`\$\{BOA_SERVER:-([^}]+)\}`).FindSubmatch(data)
	if def := envFile(t, readUnit(t, "systemd/boa-worker@.service"), nil)["BOA_SERVER"]; m == nil || string(m[1]) != def {
		t.Errorf("%s does not default BOA_SERVER to %s, the server of systemd/worker.env", script, def)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}

	// No token: the script says what is missing before boa would.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, script)
	cmd.Env = append(baseEnv(t), "BOA_SERVER=http://127.0.0.1:1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "BOA_TOKEN") {
		t.Errorf("without BOA_TOKEN: %v\n%s", err, out)
	}

	srv, token := startServeUnit(t)
	name, budget := createStudy(t, srv, token)
	if !strings.Contains(string(data), "--study "+name+" ") {
		t.Errorf("%s does not work on the study %s of study.json", script, name)
	}
	var tasks []*proc
	for i := 1; i <= 3; i++ {
		env := append(baseEnv(t), "BOA_TOKEN="+token, "BOA_SERVER="+srv,
			"SLURM_JOB_ID=1000"+fmt.Sprint(i), "SLURM_ARRAY_JOB_ID=1000", fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i))
		// Slurm runs the script from the directory sbatch was run in.
		tasks = append(tasks, start(t, fmt.Sprintf("array task %d", i), []string{bash, "examples/cluster/" + script}, env, repoRoot))
	}
	for _, p := range tasks {
		p.wait(t, 3*time.Minute)
	}
	checkComplete(t, srv, token, name, budget)
}
