package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/internal/pgtest"
)

// rlm submit fingerprints the contexts as given (relative paths), but the
// worker reads them at their absolute paths. Files of a composite context
// are concatenated in the order of their names, which is not the same for
// relative and absolute names: the worker then reads "other content" and
// fails a correctly submitted run with context_mismatch.
func TestSubmitMixedContextPathsRun(t *testing.T) {
	dbURL := pgtest.Database(t)
	root := t.TempDir()
	for _, d := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Absolute order: .../a/x.txt < .../b/z.txt; as given: "/.../b/z.txt" < "x.txt".
	if err := os.WriteFile(filepath.Join(root, "a", "x.txt"), []byte("record 000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "b", "z.txt"), []byte("record 001\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "a"))
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := newFanOutServer(t, 0)

	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"submit", "--json", "--db", dbURL, "--base-url", srv.URL + "/v1", "--model", "gpt-4o-mini",
		"--context", filepath.Join(root, "b", "z.txt"), "--context", "x.txt", "classify every record"}, nil, &out, &errb)
	var queued struct {
		RunID string `json:"run_id"`
	}
	if code != 0 || json.Unmarshal(out.Bytes(), &queued) != nil {
		t.Fatalf("submit: %d %s %s", code, out.String(), errb.String())
	}

	wctx, stop := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		// The worker writes its output from several goroutines (its
		// runs', its own): the writers must be safe for that, as
		// os.Stdout and os.Stderr are.
		var wout, werr logBuffer
		done <- run(wctx, []string{"worker", "--db", dbURL, "--base-url", srv.URL + "/v1", "--model", "gpt-4o-mini", "--grace", "1s"}, nil, &wout, &werr)
	}()
	defer func() { stop(); <-done }()

	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	var st durable.RunStatus
	var err error
	waitFor(t, ctx, "the submitted run to finish", func() bool {
		st, err = durable.State(ctx, dbURL, queued.RunID)
		return err == nil && st.Status != "pending" && st.Status != "queued"
	})
	if st.Status != "completed" {
		_, res, _ := durable.Status(context.Background(), dbURL, queued.RunID)
		var e any
		if res != nil {
			e = res.Error
		}
		t.Fatalf("the submitted run ended %q (%v), want completed; error: %v", st.Status, err, e)
	}
}
