package launcher

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "modernc.org/sqlite"
)

// binRun runs bin with its own effect state directory and returns stdout,
// stderr and the exit code.
func binRun(t *testing.T, bin string, args ...string) (string, string, int) {
	t.Helper()
	r := execBinary(t, bin, nil, binaryEnv("XDG_STATE_HOME="+t.TempDir()), args...) // never the user's journal
	return r.stdout, r.stderr, r.code
}

type callOut struct {
	Status string `json:"status"`
	Value  struct {
		Created bool `json:"created"`
	} `json:"value"`
	Error *struct {
		Kind string `json:"kind"`
	} `json:"error"`
	RunID    string `json:"run_id"`
	Replayed bool   `json:"replayed"`
	Trace    struct {
		Status string `json:"status"`
	} `json:"trace"`
}

func parseCall(t *testing.T, out, errOut string) callOut {
	t.Helper()
	var c callOut
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("not JSON: %v\n%s\n%s", err, out, errOut)
	}
	return c
}

// TestEffectIdentityThroughBinary drives the built binary: every
// invocation is a new run, so v1, v2, v1 writes v1, v2, v1; another
// --workspace writes its own file; --resume replays only the named run's
// effects (replayed: true) and never re-executes one whose outcome a crash
// left unknown; four parallel invocations on one journal all succeed.
func TestEffectIdentityThroughBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := builtBinary(t)
	state := filepath.Join(dir, "state")
	ws := filepath.Join(dir, "ws")
	ws2 := filepath.Join(dir, "ws2")
	for _, d := range []string{ws, ws2} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(t *testing.T, wsDir, path, content string, extra ...string) (callOut, int) {
		t.Helper()
		args := append([]string{"tools", "call", "fs_write", "--args", fmt.Sprintf(`{"path":%q,"content":%q}`, path, content),
			"--allow", "tool:fs_write", "--authority", "allow_session", "--workspace", wsDir, "--state-dir", state}, extra...)
		out, errOut, code := binRun(t, bin, args...)
		return parseCall(t, out, errOut), code
	}
	file := func(t *testing.T, p string) string {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	var firstRun string
	t.Run("v1_v2_v1", func(t *testing.T) {
		seen := map[string]bool{}
		for i, v := range []string{"v1", "v2", "v1"} {
			c, code := write(t, ws, "f.txt", v)
			if got := file(t, filepath.Join(ws, "f.txt")); got != v {
				t.Fatalf("after step %d the file holds %q, want %q (%+v)", i, got, v, c)
			}
			if code != 0 || c.Status != "completed" || c.Replayed || c.Trace.Status != "ok" || c.RunID == "" || seen[c.RunID] {
				t.Fatalf("step %d (%s): exit %d %+v", i, v, code, c)
			}
			seen[c.RunID] = true
			if i == 0 {
				firstRun = c.RunID
			}
		}
		c, code := write(t, ws2, "f.txt", "v1")
		if code != 0 || c.Replayed || !c.Value.Created || file(t, filepath.Join(ws2, "f.txt")) != "v1" {
			t.Fatalf("another workspace: exit %d %+v", code, c)
		}
	})

	t.Run("resume_replays", func(t *testing.T) {
		if firstRun == "" {
			t.Skip("needs v1_v2_v1")
		}
		// The first run wrote v1 (created). Resumed, the same call
		// replays its recorded outcome and does not write: the file keeps
		// the last run's v1, and a changed file stays changed.
		os.WriteFile(filepath.Join(ws, "f.txt"), []byte("changed"), 0o644)
		c, code := write(t, ws, "f.txt", "v1", "--resume", firstRun)
		if code != 0 || c.Status != "completed" || !c.Replayed || c.Trace.Status != "replayed" || c.RunID != firstRun || !c.Value.Created {
			t.Fatalf("resume: exit %d %+v", code, c)
		}
		if got := file(t, filepath.Join(ws, "f.txt")); got != "changed" {
			t.Fatalf("a replay wrote the file: %q", got)
		}
		// Only that run's effects: v2 was never a call of the first run.
		c, code = write(t, ws, "f.txt", "v2", "--resume", firstRun)
		if code != 0 || c.Replayed || file(t, filepath.Join(ws, "f.txt")) != "v2" {
			t.Fatalf("resume with another call: exit %d %+v", code, c)
		}
		out, _, code := binRun(t, bin, "tools", "call", "fs_write", "--args", `{"path":"f.txt","content":"v1"}`, "--allow", "tool:fs_write",
			"--authority", "allow_session", "--workspace", ws, "--state-dir", state, "--resume", "run-0000000000000000", "--json")
		var failed struct {
			Error struct {
				Kind string `json:"kind"`
				Hint string `json:"hint"`
			} `json:"error"`
		}
		_ = json.Unmarshal([]byte(out), &failed)
		if code != 1 || failed.Error.Kind != "unknown_run" || failed.Error.Hint == "" || file(t, filepath.Join(ws, "f.txt")) != "v2" {
			t.Fatalf("unknown run: exit %d %s", code, out)
		}
	})

	t.Run("resume_after_crash_never_reexecutes", func(t *testing.T) {
		c, code := write(t, ws, "crash.txt", "once")
		if code != 0 || c.Status != "completed" {
			t.Fatalf("exit %d %+v", code, c)
		}
		// Leave the journal as a SIGKILL between the synced dispatch record
		// and the observation leaves it: dispatching, owned by a process
		// that is gone (no owner lease), no observation.
		crashJournal(t, filepath.Join(state, "effects.db"), c.RunID)
		os.WriteFile(filepath.Join(ws, "crash.txt"), []byte("unknown"), 0o644)
		for i := range 2 {
			c, code := write(t, ws, "crash.txt", "once", "--resume", c.RunID)
			if code != 1 || c.Status != "failed" || c.Error == nil || c.Error.Kind != "reconciliation_required" || c.Replayed {
				t.Fatalf("resume %d: exit %d %+v", i, code, c)
			}
			if got := file(t, filepath.Join(ws, "crash.txt")); got != "unknown" {
				t.Fatalf("resume %d re-executed the write: %q", i, got)
			}
		}
	})

	t.Run("four_parallel_calls", func(t *testing.T) {
		for round := range 4 {
			// Round 0 opens a journal that does not exist yet: four
			// processes create it at once.
			var extra []string
			if round == 0 {
				extra = []string{"--state-dir", filepath.Join(dir, "fresh-state")}
			}
			var wg sync.WaitGroup
			res := make([]callOut, 4)
			codes := make([]int, 4)
			for i := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res[i], codes[i] = write(t, ws, fmt.Sprintf("p%d.txt", i), fmt.Sprintf("r%d", round), extra...)
				}()
			}
			wg.Wait()
			for i := range 4 {
				if codes[i] != 0 || res[i].Status != "completed" {
					t.Errorf("round %d call %d: exit %d %+v", round, i, codes[i], res[i])
				}
				if got := file(t, filepath.Join(ws, fmt.Sprintf("p%d.txt", i))); got != fmt.Sprintf("r%d", round) {
					t.Errorf("round %d file %d: %q", round, i, got)
				}
			}
		}
	})

	t.Run("rlm_run_resume", func(t *testing.T) {
		// A plan writes v1 then v2 (two calls of one run): both run.
		ctxFile := filepath.Join(dir, "in.txt")
		os.WriteFile(ctxFile, []byte("context\n"), 0o644)
		plan := `{"steps":[{"op":"tool","name":"fs_write","args":{"path":"g.txt","content":"v1"},"bind":"a"},` +
			`{"op":"tool","name":"fs_write","args":{"path":"g.txt","content":"v2"},"bind":"b"},{"op":"final","value":"done"}]}`
		cas := writeCassette(t, dir, plan)
		runArgs := []string{"run", "--context", ctxFile, "--replay", cas, "--workspace", ws, "--state-dir", state,
			"--allow", "tool:fs_write", "--authority", "allow_session", "--json", "write"}
		out, errOut, code := binRun(t, bin, runArgs...)
		var r struct {
			Status   string `json:"status"`
			RunID    string `json:"run_id"`
			Replayed bool   `json:"replayed"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || r.RunID == "" || r.Replayed {
			t.Fatalf("run: exit %d %v %s %s", code, err, out, errOut)
		}
		if got := file(t, filepath.Join(ws, "g.txt")); got != "v2" {
			t.Fatalf("after the run g.txt holds %q", got)
		}
		os.WriteFile(filepath.Join(ws, "g.txt"), []byte("later"), 0o644)
		out, errOut, code = binRun(t, bin, append(runArgs[:len(runArgs)-1], "--resume", r.RunID, "write")...)
		var r2 struct {
			Status   string `json:"status"`
			RunID    string `json:"run_id"`
			Replayed bool   `json:"replayed"`
		}
		if err := json.Unmarshal([]byte(out), &r2); err != nil || code != 0 || r2.RunID != r.RunID || !r2.Replayed {
			t.Fatalf("resumed run: exit %d %v %s %s", code, err, out, errOut)
		}
		if got := file(t, filepath.Join(ws, "g.txt")); got != "later" {
			t.Fatalf("the resumed run re-executed a write: %q", got)
		}
		// Text mode names the run on stderr.
		_, errOut, code = binRun(t, bin, append(runArgs[:len(runArgs)-2:len(runArgs)-2], "write")...)
		if code != 0 || !strings.Contains(errOut, "rlm: run run-") || !strings.Contains(errOut, "--resume run-") {
			t.Fatalf("text mode: exit %d %s", code, errOut)
		}
	})
}

// crashJournal rewrites the run's attempts to the state a SIGKILL during
// the handler leaves: dispatching, no observation, owned by an owner whose
// lease is gone.
func crashJournal(t *testing.T, path, runID string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.ExecContext(context.Background(), `UPDATE attempts SET state = 'dispatching', observation = NULL, owner = 'owner-killed'
		WHERE call_id IN (SELECT call_id FROM calls WHERE run_id = ?)`, runID)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("%d attempts in run %s", n, runID)
	}
}
