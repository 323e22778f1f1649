package tool

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
)

const crashChildEnv = "RLM_TOOL_CRASH_CHILD"

// crashRuntime builds the runtime both processes use: one effectful tool
// whose handler appends a byte to an external counter file (synced), marks
// that it started, and then blocks until its context ends.
func crashRuntime(dir string) (*Runtime, *effect.Journal, error) {
	j, err := effect.Open(filepath.Join(dir, "effects.db"))
	if err != nil {
		return nil, nil, err
	}
	reg := NewRegistry()
	err = reg.Register(Spec{
		Name: "deploy", Effect: authority.EffectServiceStart,
		Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
		Limits: Limits{TimeLimit: time.Minute},
		Handler: func(ctx context.Context, req Request) (any, error) {
			f, err := os.OpenFile(filepath.Join(dir, "counter"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			f.Write([]byte("x"))
			f.Sync()
			f.Close()
			os.WriteFile(filepath.Join(dir, "started"), nil, 0o644)
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	if err != nil {
		j.Close()
		return nil, nil, err
	}
	rt := NewRuntime(reg, Config{Journal: j})
	rt.Authority().Set("host", authority.AllowSession)
	return rt, j, nil
}

var crashCall = Call{Name: "deploy", Args: json.RawMessage(`{"service":"web"}`),
	Invocation: Invocation{Capabilities: capability.MustSet("tool:deploy"), AuthorityContext: "host"}}

// runCrashChild runs in the re-executed test binary and never returns
// normally: the parent kills it while the handler blocks. Like a CLI
// invocation, it is a new run and tells its run id (file "run_id").
func runCrashChild(dir string) {
	rt, _, err := crashRuntime(dir)
	if err != nil {
		os.Exit(3)
	}
	run := NewRun()
	if err := os.WriteFile(filepath.Join(dir, "run_id"), []byte(run.ID()), 0o644); err != nil {
		os.Exit(5)
	}
	rt.Invoke(WithRun(context.Background(), run), crashCall)
	os.Exit(4) // unreachable unless the handler returned
}

// TestCrashRestartNeedsReconciliation: a process SIGKILLed while its
// handler runs, then the run resumed by id in a new process: the call
// reports reconciliation_required and is never executed again, however
// often the run is resumed.
func TestCrashRestartNeedsReconciliation(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs SIGKILL and re-exec")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("child never started the handler")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()

	id, err := os.ReadFile(filepath.Join(dir, "run_id"))
	if err != nil {
		t.Fatal(err)
	}
	rt, j, err := crashRuntime(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if n, err := j.RunEffects(context.Background(), string(id)); err != nil || n != 1 {
		t.Fatalf("the killed run recorded %d effects: %v", n, err)
	}
	for i := range 2 { // the second resume is yet another process
		res, err := rt.Invoke(WithRun(context.Background(), ResumeRun(string(id))), crashCall)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusError || fault.KindOf(res.Error) != effect.KindReconciliation || res.Trace.Authorization != AuthPending || res.Replayed {
			t.Fatalf("resume %d: %+v", i, res)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "counter")); string(b) != "x" {
		t.Fatalf("handler ran %d times", len(b))
	}
	un, err := j.Unresolved(context.Background())
	if err != nil || len(un) != 1 || un[0].State != effect.StateIndeterminate {
		t.Fatalf("unresolved: %+v %v", un, err)
	}
}
