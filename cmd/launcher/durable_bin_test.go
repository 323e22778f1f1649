package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/internal/pgtest"
	"github.com/rlm-go/rlm/model/replay"
)

// fanOutServer is an OpenAI-compatible server that answers the root with a
// plan mapping a model call over every line of the context, and each
// sub-call with a label; it counts requests per prompt. It holds every
// sub-call after the first holdAfter until hold is closed, and reports on
// reached when one waits.
type fanOutServer struct {
	*httptest.Server
	mu        sync.Mutex
	seen      map[string]int
	roots     int
	answered  int
	times     []time.Time // arrival of each sub-call
	holdAfter int
	hold      chan struct{}
	reached   chan struct{}
	once      sync.Once
}

const durableFanOutPlan = `{"steps":[
  {"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"partition","strategy":"lines","size":1},"bind":"parts"},
  {"op":"map","over":{"ref":"var","name":"parts"},"as":"p","concurrency":16,"bind":"out","plan":{"steps":[
    {"op":"model","prompt":{"join":["classify ",{"text":{"ref":"field","value":{"ref":"var","name":"p"},"key":"handle"}}]},"bind":"a"},
    {"op":"final","value":{"ref":"var","name":"a"}}]}},
  {"op":"final","value":{"ref":"var","name":"out"}}]}`

func newFanOutServer(t *testing.T, holdAfter int) *fanOutServer {
	s := &fanOutServer{seen: map[string]int{}, holdAfter: holdAfter, hold: make(chan struct{}), reached: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) == 0 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		last := body.Messages[len(body.Messages)-1].Content
		s.mu.Lock()
		s.seen[last]++
		root := body.Messages[0].Role == "system"
		if root {
			s.roots++
		} else {
			s.times = append(s.times, time.Now())
		}
		wait := !root && s.holdAfter > 0 && s.answered >= s.holdAfter
		if !root && !wait {
			s.answered++
		}
		s.mu.Unlock()
		if wait {
			s.once.Do(func() { close(s.reached) })
			select {
			case <-s.hold: // released: answered like any other call
			case <-r.Context().Done():
				return
			}
		}
		text := durableFanOutPlan
		if !root {
			text = "label " + strings.TrimSpace(strings.TrimPrefix(last, "classify "))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(completion(text))
	}))
	t.Cleanup(func() {
		select {
		case <-s.hold:
		default:
			close(s.hold)
		}
		s.Close()
	})
	return s
}

var durableRunID = regexp.MustCompile(`rlm: durable run ([0-9a-f-]{36}) `)

// The process of a durable run is SIGKILLed in the middle of a fan-out of
// 300 sub-calls; rlm run --db --resume RUN_ID finishes it: the answer is
// complete and in order, no recorded call reached the server again, no
// call reached it more than twice, the root turn was sent once, and the
// charged usage is exactly the usage of the recorded responses.
func TestDurableRunSurvivesSIGKILL(t *testing.T) {
	dbURL := pgtest.Database(t)
	const n = 300
	ctxFile := recordsFile(t, n)
	srv := newFanOutServer(t, 137)
	env := binaryEnv("OPENAI_API_KEY=sk-test")
	args := []string{"run", "--db", dbURL, "--base-url", srv.URL + "/v1", "--model", "gpt-4o-mini", "--context", ctxFile,
		"--max-model-calls", "1000", "--max-concurrency", "8", "classify every record"}

	// First process: killed once the server holds a call.
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	cmd, stderr := startHeld(t, ctx, srv, env, args)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	id := runIDOf(t, stderr.String())
	before := recordedTotals(t, dbURL, id)
	srv.mu.Lock()
	seenBefore := map[string]int{}
	for k, v := range srv.seen {
		seenBefore[k] = v
	}
	srv.holdAfter = 0 // the resumed run is answered in full
	srv.mu.Unlock()
	if before.ModelCalls < 2 || before.ModelCalls > 138 {
		t.Fatalf("recorded before the kill: %+v", before)
	}

	out := resumeLabels(t, env, args, id, n)
	after := recordedTotals(t, dbURL, id)
	if after.ModelCalls != n+1 || out.Usage.TotalTokens != after.Tokens {
		t.Fatalf("usage %d tokens, records %+v", out.Usage.TotalTokens, after)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.roots != 1 {
		t.Fatalf("the root turn was sent %d times", srv.roots)
	}
	resent := 0
	for prompt, k := range srv.seen {
		if k > 2 {
			t.Fatalf("%q sent %d times", prompt, k)
		}
		if k == 2 {
			resent++
		}
	}
	// Exactly the calls sent but not recorded before the kill (those in
	// flight) were sent again: no recorded call was.
	sentBefore := 0
	for _, k := range seenBefore {
		sentBefore += k
	}
	if inFlight := int64(sentBefore) - before.ModelCalls; int64(resent) != inFlight || resent > 8 {
		t.Fatalf("%d calls sent twice; %d sent and %d recorded before the kill", resent, sentBefore, before.ModelCalls)
	}
	// status and result read the finished run from the database.
	sres := runBinary(t, nil, env, "status", "--db", dbURL, id)
	var status durable.RunStatus
	if err := json.Unmarshal([]byte(sres.stdout), &status); err != nil || sres.code != 0 {
		t.Fatalf("status: %d %v %s %s", sres.code, err, sres.stdout, sres.stderr)
	}
	if status.Status != "completed" || status.Steps.ModelCalls != n+1 || status.Steps.Tokens != after.Tokens {
		t.Fatalf("status %+v", status)
	}
	rres := runBinary(t, nil, env, "result", "--db", dbURL, "--json", id)
	var again struct {
		Status string
		Answer []string
	}
	if err := json.Unmarshal([]byte(rres.stdout), &again); err != nil || rres.code != 0 || again.Status != "completed" || len(again.Answer) != n || again.Answer[7] != out.Answer[7] {
		t.Fatalf("result: %d %v %.300s", rres.code, err, rres.stdout)
	}
	if nf := runBinary(t, nil, env, "status", "--db", dbURL, "no-such-run"); nf.code == 0 || !strings.Contains(nf.stdout+nf.stderr, string(durable.KindRunNotFound)) {
		t.Fatalf("unknown run: %d %s %s", nf.code, nf.stdout, nf.stderr)
	}
	t.Logf("recorded before the kill: %d calls; sent again after it: %d", before.ModelCalls, resent)
	if len(srv.seen) != n+1 {
		t.Fatalf("%d distinct prompts", len(srv.seen))
	}
}

// startWorker starts rlm worker against baseURL and waits until it serves.
func startWorker(t *testing.T, ctx context.Context, dbURL, baseURL string, extra ...string) *exec.Cmd {
	t.Helper()
	cmd, _ := startLoggedWorker(t, ctx, dbURL, baseURL, extra...)
	return cmd
}

// Three workers serve the sub-calls of a run of 300; one worker and the
// run's own process are SIGKILLed in the middle of the fan-out; the resumed
// run finishes on the two live workers with the right answer, no call was
// sent more than twice, the root turn once, and the charged usage is
// exactly the recorded responses'. The live workers stop gracefully on
// SIGTERM.
func TestDurableQueueSurvivesWorkerAndRunKill(t *testing.T) {
	dbURL := pgtest.Database(t)
	const n = 300
	ctxFile := recordsFile(t, n)
	srv := newFanOutServer(t, 150)
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	workers := []*exec.Cmd{}
	for range 3 {
		workers = append(workers, startWorker(t, ctx, dbURL, srv.URL+"/v1", "--concurrency", "4"))
	}
	env := binaryEnv("OPENAI_API_KEY=sk-test")
	args := []string{"run", "--db", dbURL, "--queue", "q", "--base-url", srv.URL + "/v1", "--model", "gpt-4o-mini", "--context", ctxFile,
		"--max-model-calls", "1000", "--max-concurrency", "12", "classify every record"}
	cmd, stderr := startHeld(t, ctx, srv, env, args)
	_ = workers[0].Process.Kill()
	_ = workers[0].Wait()
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	id := runIDOf(t, stderr.String())
	srv.mu.Lock()
	srv.holdAfter = 0
	close(srv.hold)
	srv.mu.Unlock()

	out := resumeLabels(t, env, args, id, n)
	after := recordedTotals(t, dbURL, id)
	if after.ModelCalls != n+1 || out.Usage.TotalTokens != after.Tokens {
		t.Fatalf("usage %d tokens, records %+v", out.Usage.TotalTokens, after)
	}
	srv.mu.Lock()
	twice := 0
	for prompt, k := range srv.seen {
		if k > 2 {
			t.Errorf("%q sent %d times", prompt, k)
		}
		if k == 2 {
			twice++
		}
	}
	roots, distinct := srv.roots, len(srv.seen)
	srv.mu.Unlock()
	if roots != 1 || distinct != n+1 {
		t.Fatalf("root sent %d times, %d distinct prompts", roots, distinct)
	}
	// The sub-calls ran as DBOS call workflows (batches of at most MaxBatch
	// requests) on more than one worker.
	st, err := durable.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var executors, calls int
	if err := st.Pool().QueryRow(context.Background(), `SELECT count(DISTINCT executor_id), count(*) FROM dbos.workflow_status
		WHERE name = $1 AND queue_name = 'q' AND status = 'SUCCESS'`, durable.CallWorkflowName).Scan(&executors, &calls); err != nil {
		t.Fatal(err)
	}
	if executors < 2 || calls < (n+durable.MaxBatch-1)/durable.MaxBatch {
		t.Fatalf("%d call workflows (up to %d requests each) finished on %d workers", calls, durable.MaxBatch, executors)
	}
	t.Logf("%d of %d sub-calls were sent twice; %d call workflows on %d workers", twice, n, calls, executors)
	for _, w := range workers[1:] {
		if err := w.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := w.Wait(); err != nil {
			t.Fatalf("worker after SIGTERM: %v", err)
		}
	}
}

// With a rate limit of 10 calls per 5 s per model (the mechanism of 60 per
// minute, scaled down to keep the test short) and three workers, the
// server never sees more than 10 sub-calls within any 3 s: DBOS limits the
// calls' starts, and the window is shortened by 2 s for the delay between
// a call's start and its arrival at the server, which on a loaded machine
// under -race reaches a second. Without the limit all 30 arrive within
// about a second.
func TestDurableQueueRateLimit(t *testing.T) {
	dbURL := pgtest.Database(t)
	const n, limit = 30, 10
	ctxFile := recordsFile(t, n)
	srv := newFanOutServer(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	for range 3 {
		startWorker(t, ctx, dbURL, srv.URL+"/v1", "--concurrency", "8", "--rate-limit", fmt.Sprint(limit), "--rate-period", "5s")
	}
	res := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test"), "run", "--json", "--db", dbURL, "--queue", "q", "--base-url", srv.URL+"/v1",
		"--model", "gpt-4o-mini", "--context", ctxFile, "--max-concurrency", "24", "classify every record")
	if res.code != 0 {
		t.Fatalf("exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	srv.mu.Lock()
	times := append([]time.Time(nil), srv.times...)
	srv.mu.Unlock()
	if len(times) != n {
		t.Fatalf("%d sub-calls", len(times))
	}
	window := 3 * time.Second
	most := 0
	for i := range times {
		k := 0
		for j := i; j < len(times) && times[j].Sub(times[i]) < window; j++ {
			k++
		}
		most = max(most, k)
	}
	if most > limit {
		t.Fatalf("%d sub-calls within %s; the limit is %d", most, window, limit)
	}
	t.Logf("at most %d sub-calls within %s", most, window)
}

// recordsFile writes a context of n lines "record NNN".
func recordsFile(t *testing.T, n int) string {
	t.Helper()
	var lines strings.Builder
	for i := range n {
		fmt.Fprintf(&lines, "record %03d\n", i)
	}
	p := filepath.Join(t.TempDir(), "records.txt")
	if err := os.WriteFile(p, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startHeld starts rlm with args and returns once srv holds a call.
func startHeld(t *testing.T, ctx context.Context, srv *fanOutServer, env, args []string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.CommandContext(ctx, builtBinary(t), args...)
	cmd.Env = env
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-srv.reached:
	case <-ctx.Done():
		t.Fatalf("the run never reached the held call; stderr: %s", stderr.String())
	}
	return cmd, stderr
}

// runIDOf reads the durable run id rlm run printed on stderr.
func runIDOf(t *testing.T, stderr string) string {
	t.Helper()
	m := durableRunID.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no run id on stderr: %s", stderr)
	}
	return m[1]
}

// resumedRun is the --json output a resume is checked on.
type resumedRun struct {
	Status string
	Answer []string
	RunID  string `json:"run_id"`
	Usage  struct {
		TotalTokens int64 `json:"total_tokens"`
		Calls       int   `json:"calls"`
	}
}

// resumeLabels resumes run id with args (an rlm run command line) and
// checks that it completed with the n labels in order.
func resumeLabels(t *testing.T, env, args []string, id string, n int) resumedRun {
	t.Helper()
	res := runBinary(t, nil, env, append([]string{"run", "--json", "--resume", id}, args[1:]...)...)
	if res.code != 0 {
		t.Fatalf("resume exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	var out resumedRun
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, res.stdout)
	}
	if out.Status != "completed" || len(out.Answer) != n || out.RunID != id {
		t.Fatalf("status %s, %d answers, run %s", out.Status, len(out.Answer), out.RunID)
	}
	for i, a := range out.Answer {
		if a != fmt.Sprintf("label record %03d", i) {
			t.Fatalf("answer %d = %q", i, a)
		}
	}
	return out
}

// logBuffer is a stderr that tests read while the process runs.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startLoggedWorker starts rlm worker against baseURL, serving queue q,
// and waits until it serves; its stderr stays readable.
func startLoggedWorker(t *testing.T, ctx context.Context, dbURL, baseURL string, extra ...string) (*exec.Cmd, *logBuffer) {
	t.Helper()
	args := append([]string{"worker", "--db", dbURL, "--base-url", baseURL, "--queue", "q"}, extra...)
	cmd := exec.CommandContext(ctx, builtBinary(t), args...)
	cmd.Env = binaryEnv("OPENAI_API_KEY=sk-test")
	log := &logBuffer{}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	waitFor(t, ctx, "the worker to serve", func() bool { return strings.Contains(log.String(), "serving queue") })
	return cmd, log
}

// waitFor polls cond until it holds, failing when ctx ends first.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting for %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitFinished polls the durable run id until it finished.
func waitFinished(t *testing.T, ctx context.Context, dbURL, id string) durable.RunStatus {
	t.Helper()
	var st durable.RunStatus
	waitFor(t, ctx, "run "+id+" to finish", func() bool {
		var err error
		st, _, err = durable.Status(ctx, dbURL, id)
		if err != nil {
			t.Fatal(err)
		}
		return st.Status != "pending" && st.Status != "queued"
	})
	return st
}

var recordedLabel = regexp.MustCompile(`label (record \d{3})`)

// A run submitted with rlm submit is run, root loop included, by one of
// two workers; that worker is SIGKILLed in the middle of the fan-out; the
// other worker notices its missing heartbeat, takes the run over and
// finishes it from its checkpoints: the answer is complete, no call
// recorded before the kill reached the server again, none more than
// twice, the root turn once, and the charged usage is exactly the
// recorded responses'. The run's --max-model-calls fits it exactly: the
// budget continues across the takeover (the records are charged again),
// and what the two workers sent beyond it are calls not recorded before
// the kill, each at most twice.
func TestDurableSubmitSurvivesWorkerKill(t *testing.T) {
	testSubmittedRunSurvivesWorkerStop(t, false)
}

// The same with SIGTERM instead of SIGKILL: the worker running the run
// stops taking calls, waits --grace for its calls in flight (held by the
// server, so they do not finish), exits 0 and hands the run back instead
// of recording it cancelled; the other worker takes it over at its next
// heartbeat and finishes it from its checkpoints, with the same checks.
func TestDurableSubmitHandedBackOnSIGTERM(t *testing.T) {
	testSubmittedRunSurvivesWorkerStop(t, true)
}

func testSubmittedRunSurvivesWorkerStop(t *testing.T, term bool) {
	dbURL := pgtest.Database(t)
	const n = 100
	ctxFile := recordsFile(t, n)
	srv := newFanOutServer(t, 40)
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	type worker struct {
		cmd *exec.Cmd
		log *logBuffer
	}
	var workers []worker
	for range 2 {
		c, l := startLoggedWorker(t, ctx, dbURL, srv.URL+"/v1", "--concurrency", "4", "--dead-after", "2s", "--grace", "500ms")
		workers = append(workers, worker{c, l})
	}
	env := binaryEnv("OPENAI_API_KEY=sk-test")
	sub := runBinary(t, nil, env, "submit", "--db", dbURL, "--queue", "q", "--base-url", srv.URL+"/v1", "--model", "gpt-4o-mini",
		"--context", ctxFile, "--max-model-calls", fmt.Sprint(n+1), "--max-concurrency", "8", "classify every record")
	id := strings.TrimSpace(sub.stdout)
	if sub.code != 0 || len(id) != 36 {
		t.Fatalf("submit: %d %q %s", sub.code, sub.stdout, sub.stderr)
	}
	select {
	case <-srv.reached:
	case <-ctx.Done():
		t.Fatal("the submitted run never reached the held call")
	}
	running := func(w worker) bool { return strings.Contains(w.log.String(), "running durable run "+id) }
	victim, survivor := workers[0], workers[1]
	if !running(victim) {
		victim, survivor = survivor, victim
	}
	if !running(victim) {
		t.Fatalf("no worker reports running %s", id)
	}
	if term {
		if err := victim.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := victim.cmd.Wait(); err != nil {
			t.Fatalf("the worker after SIGTERM with its run in flight: %v\n%s", err, victim.log.String())
		}
	} else {
		_ = victim.cmd.Process.Kill()
		_ = victim.cmd.Wait()
	}

	// What was recorded before the kill must never be sent again.
	st, err := durable.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.Pool().Query(context.Background(), `SELECT result::text FROM rlm.steps WHERE run_id = $1 AND kind = 'model'`, id)
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]bool{}
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		if m := recordedLabel.FindStringSubmatch(raw); m != nil {
			recorded["classify "+m[1]] = true
		}
	}
	rows.Close()
	srv.mu.Lock()
	seenBefore := map[string]int{}
	for k, v := range srv.seen {
		seenBefore[k] = v
	}
	srv.holdAfter = 0
	close(srv.hold)
	srv.mu.Unlock()
	if len(recorded) < 2 {
		t.Fatalf("%d sub-calls recorded before the kill", len(recorded))
	}

	status := waitFinished(t, ctx, dbURL, id)
	if status.Status != "completed" || status.Steps.ModelCalls != n+1 {
		r := runBinary(t, nil, env, "result", "--db", dbURL, "--json", id)
		t.Fatalf("status %+v; result %.2000s", status, r.stdout)
	}
	if !running(survivor) {
		t.Fatalf("the surviving worker did not take the run over: %s", survivor.log.String())
	}
	res := runBinary(t, nil, env, "result", "--db", dbURL, "--json", id)
	var out resumedRun
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil || res.code != 0 || out.Status != "completed" || len(out.Answer) != n {
		t.Fatalf("result: %d %v %.300s", res.code, err, res.stdout)
	}
	for i, a := range out.Answer {
		if a != fmt.Sprintf("label record %03d", i) {
			t.Fatalf("answer %d = %q", i, a)
		}
	}
	if out.Usage.TotalTokens != status.Steps.Tokens {
		t.Fatalf("usage %d tokens, records %d", out.Usage.TotalTokens, status.Steps.Tokens)
	}
	srv.mu.Lock()
	for prompt, k := range srv.seen {
		if k > 2 || (recorded[prompt] && k != seenBefore[prompt]) {
			t.Errorf("%q sent %d times (%d before the kill, recorded %v)", prompt, k, seenBefore[prompt], recorded[prompt])
		}
	}
	if srv.roots != 1 || len(srv.seen) != n+1 {
		t.Errorf("root sent %d times, %d distinct prompts", srv.roots, len(srv.seen))
	}
	sent := 0
	for _, k := range srv.seen {
		sent += k
	}
	srv.mu.Unlock()
	// The budget fits the run exactly: the records were charged again
	// after the takeover. Beyond it the server saw only calls not
	// recorded before the kill (in flight, or dequeued from the dead
	// run's queue before the takeover), each at most twice (above).
	if out.Usage.Calls != n+1 {
		t.Errorf("usage %d calls with --max-model-calls %d", out.Usage.Calls, n+1)
	}
	t.Logf("%d sub-calls recorded before the kill; %d requests for a budget of %d", len(recorded), sent, n+1)
	if err := survivor.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := survivor.cmd.Wait(); err != nil {
		t.Fatalf("worker after SIGTERM: %v", err)
	}
}

// A submitted run no worker has taken is continued by rlm run --db
// --resume RUN_ID: it leaves the queue and runs in that process.
func TestDurableSubmitResumedByRun(t *testing.T) {
	dbURL := pgtest.Database(t)
	const n = 12
	ctxFile := recordsFile(t, n)
	srv := newFanOutServer(t, 0)
	env := binaryEnv("OPENAI_API_KEY=sk-test")
	args := []string{"run", "--db", dbURL, "--base-url", srv.URL + "/v1", "--model", "gpt-4o-mini", "--context", ctxFile, "classify every record"}
	sub := runBinary(t, nil, env, append([]string{"submit", "--json"}, args[1:]...)...)
	var queued struct {
		RunID  string `json:"run_id"`
		Status string
	}
	if err := json.Unmarshal([]byte(sub.stdout), &queued); err != nil || sub.code != 0 || queued.Status != "queued" {
		t.Fatalf("submit: %d %v %s %s", sub.code, err, sub.stdout, sub.stderr)
	}
	if st := runBinary(t, nil, env, "status", "--db", dbURL, queued.RunID); !strings.Contains(st.stdout, `"status": "queued"`) {
		t.Fatalf("status: %s %s", st.stdout, st.stderr)
	}
	resumeLabels(t, env, args, queued.RunID, n)
	if res := runBinary(t, nil, env, "result", "--db", dbURL, queued.RunID); res.code != 0 || !strings.Contains(res.stdout, "label record 011") {
		t.Fatalf("result: %d %s %s", res.code, res.stdout, res.stderr)
	}
}

// rlm submit refuses inputs a worker cannot read, before connecting.
func TestSubmitRefusesUnsharedContext(t *testing.T) {
	for _, c := range []string{"-", "mcp://docs/readme"} {
		res := runBinary(t, strings.NewReader("text"), binaryEnv("OPENAI_API_KEY=sk-test"), "submit", "--json", "--db", "postgres://nobody@127.0.0.1:1/x",
			"--context", c, "q")
		if res.code == 0 || !strings.Contains(res.stdout+res.stderr, string(durable.KindContextNotShared)) {
			t.Fatalf("%s: %d %s %s", c, res.code, res.stdout, res.stderr)
		}
	}
}

// recordedTotals reads what the database recorded for run id.
func recordedTotals(t *testing.T, dbURL, id string) durable.StepTotals {
	t.Helper()
	st, err := durable.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tot, err := st.Totals(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tot
}

// rlm worker --record FILE writes the sub-model calls it sent to the
// cassette FILE when it stops (the flag was accepted and nothing written).
func TestWorkerRecordsItsCalls(t *testing.T) {
	dbURL := pgtest.Database(t)
	const n = 5
	ctxFile := recordsFile(t, n)
	srv := newFanOutServer(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	cassette := filepath.Join(t.TempDir(), "worker.json")
	w := startWorker(t, ctx, dbURL, srv.URL+"/v1", "--record", cassette)
	res := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test"), "run", "--json", "--db", dbURL, "--queue", "q", "--base-url", srv.URL+"/v1",
		"--model", "gpt-4o-mini", "--context", ctxFile, "classify every record")
	if res.code != 0 {
		t.Fatalf("exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	if err := w.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := w.Wait(); err != nil {
		t.Fatalf("worker after SIGTERM: %v", err)
	}
	cas, err := replay.Load(cassette)
	if err != nil {
		t.Fatalf("the worker's cassette: %v", err)
	}
	if len(cas.Interactions) != n {
		t.Fatalf("%d interactions recorded, want the %d sub-calls", len(cas.Interactions), n)
	}
}

// Ctrl-C of rlm run --db in the middle of a fan-out exits 130 and hands
// the run back: rlm status shows it pending, the message names the
// --resume command, and --resume finishes it without sending a recorded
// call again. Before, the interruption was recorded as the run's final
// outcome and --resume printed it back.
func TestDurableRunInterruptIsResumable(t *testing.T) {
	dbURL := pgtest.Database(t)
	const n = 40
	ctxFile := recordsFile(t, n)
	srv := newFanOutServer(t, 20)
	env := binaryEnv("OPENAI_API_KEY=sk-test")
	args := []string{"run", "--db", dbURL, "--base-url", srv.URL + "/v1", "--model", "gpt-4o-mini", "--context", ctxFile,
		"--max-concurrency", "4", "classify every record"}
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	cmd, stderr := startHeld(t, ctx, srv, env, args)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitInterrupted, stderr.String())
	}
	id := runIDOf(t, stderr.String())
	if !strings.Contains(stderr.String(), "--resume "+id) {
		t.Fatalf("the message does not name the resume command: %s", stderr.String())
	}
	sres := runBinary(t, nil, env, "status", "--db", dbURL, id)
	var status durable.RunStatus
	if err := json.Unmarshal([]byte(sres.stdout), &status); err != nil || status.Status != "pending" {
		t.Fatalf("status after Ctrl-C: %v %s %s", err, sres.stdout, sres.stderr)
	}
	srv.mu.Lock()
	srv.holdAfter = 0
	srv.mu.Unlock()
	resumeLabels(t, env, args, id, n)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for prompt, k := range srv.seen {
		if k > 2 {
			t.Fatalf("%q sent %d times", prompt, k)
		}
	}
	if srv.roots != 1 {
		t.Fatalf("the root turn was sent %d times", srv.roots)
	}
}
