package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/internal/pgtest"
)

// Two rlm run --resume of one killed durable run started together (the
// issue's attack): exactly one runs it to the end, the other exits at once
// with config/run_in_progress, and no call reaches the server twice from
// the two. The server holds every call of the resumes until one of them
// has exited or more calls are held than one process may have in flight
// (--max-concurrency 8): before the run's exclusive claim, both resumes
// ran the run and sent its remaining calls twice.
func TestDurableConcurrentResumesAreExclusive(t *testing.T) {
	dbURL := pgtest.Database(t)
	const n = 60
	ctxFile := recordsFile(t, n)
	srv := newFanOutServer(t, 20)
	env := binaryEnv("OPENAI_API_KEY=sk-test")
	args := []string{"run", "--db", dbURL, "--base-url", srv.URL + "/v1", "--model", "gpt-4o-mini", "--context", ctxFile,
		"--max-model-calls", "1000", "--max-concurrency", "8", "classify every record"}
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	first, stderr := startHeld(t, ctx, srv, env, args)
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	id := runIDOf(t, stderr.String())
	srv.mu.Lock()
	before := map[string]int{}
	for k, v := range srv.seen {
		before[k] = v
	}
	sentBefore := len(srv.times)
	srv.mu.Unlock()

	type proc struct {
		cmd            *exec.Cmd
		stdout, stderr bytes.Buffer
		took           time.Duration // from start to exit
	}
	procs := make([]*proc, 2)
	exited := make(chan int, 2)
	for i := range procs {
		p := &proc{}
		p.cmd = exec.CommandContext(ctx, builtBinary(t), append([]string{"run", "--json", "--resume", id}, args[1:]...)...)
		p.cmd.Env = env
		p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = p
		start := time.Now()
		go func() { _ = p.cmd.Wait(); p.took = time.Since(start); exited <- i }()
	}
	ended := 0
	waitFor(t, ctx, "a resume to exit or both to send", func() bool {
		select {
		case <-exited:
			ended++
			return true
		default:
		}
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return len(srv.times)-sentBefore > 8
	})
	close(srv.hold)
	for ; ended < 2; ended++ {
		<-exited
	}

	completed, refused := 0, 0
	for _, p := range procs {
		var out resumedRun
		switch code := p.cmd.ProcessState.ExitCode(); {
		case code == 0 && json.Unmarshal(p.stdout.Bytes(), &out) == nil && out.Status == "completed" && len(out.Answer) == n:
			completed++
		case code != 0 && strings.Contains(p.stdout.String()+p.stderr.String(), string(durable.KindRunInProgress)):
			refused++
			t.Logf("the refused resume exited after %v", p.took.Round(time.Millisecond))
		default:
			t.Errorf("a resume exited %d: %.500s %.500s", code, p.stdout.String(), p.stderr.String())
		}
	}
	if completed != 1 || refused != 1 {
		t.Errorf("%d resumes completed, %d refused with run_in_progress; want 1 and 1", completed, refused)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	twice := 0
	for prompt, k := range srv.seen {
		if k-before[prompt] > 1 {
			twice++
		}
	}
	if twice > 0 {
		t.Errorf("%d calls sent more than once by the resumes", twice)
	}
	if st := recordedTotals(t, dbURL, id); st.ModelCalls != n+1 {
		t.Errorf("records %+v", st)
	}
}
