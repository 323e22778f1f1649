package launcher

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

func TestTraceViewCmd(t *testing.T) {
	defer goleak.VerifyNone(t)
	rec := trace.NewRecorder()
	ctx := trace.WithRecorder(context.Background(), rec)
	rctx, root := trace.Start(ctx, trace.KindRun, "demo")
	_, call := trace.Start(rctx, trace.KindModelCall, "gpt-4o-mini")
	call.SetTokens(100, 20, 120)
	call.SetCost(0.0005, false)
	call.End(nil)
	_, op := trace.Start(rctx, trace.KindContextOp, "search")
	op.SetBytes(4096)
	op.End(fault.New(fault.PhaseContext, "invalid_pattern", "bad"))
	root.End(nil)

	dir := t.TempDir()
	for _, name := range []string{"t.json", "t.jsonl"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := trace.WriteFile(path, "demo", rec.Events(), 0); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), []string{"trace", "view", path}, strings.NewReader(""), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
			if len(lines) != 3 {
				t.Fatalf("want 3 lines, got:\n%s", stdout.String())
			}
			checks := []struct{ prefix, contains string }{
				{"✓ run demo", ""},
				{"  ✓ model_call gpt-4o-mini", "tokens=120(100+20) cost=~$0.000500"},
				{"  ✗ context_op search", "bytes=4096 status=error error=context/invalid_pattern"},
			}
			for i, c := range checks {
				if !strings.HasPrefix(lines[i], c.prefix) || !strings.Contains(lines[i], c.contains) {
					t.Errorf("line %d = %q, want prefix %q containing %q", i, lines[i], c.prefix, c.contains)
				}
			}
		})
	}

	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, kind string }{
		{bad, "malformed_trace"},
		{filepath.Join(dir, "none.json"), "io_error"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"trace", "view", tt.path, "--json"}, strings.NewReader(""), &stdout, &stderr)
		if code == 0 || jsonErrorKind(stdout.Bytes()) != tt.kind {
			t.Errorf("%s: exit %d, stdout %s; want %s", tt.path, code, stdout.String(), tt.kind)
		}
	}
}
