package rlm

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// autoProvider answers a direct request (DirectMessages' system message)
// with "direct answer" and a code-mode root with a cell computing the
// answer; it counts both.
type autoProvider struct {
	mu           sync.Mutex
	direct, code int
}

func (p *autoProvider) Complete(_ context.Context, req model.Request) (*model.Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	u := budget.Usage{Calls: 1, PromptTokens: 50, CompletionTokens: 5, TotalTokens: 55, TokensKnown: true}
	if req.Messages[0].Content == directSystem {
		p.direct++
		return &model.Response{Text: "direct answer", Usage: u}, nil
	}
	p.code++
	return &model.Response{Text: "```python\nFINAL(\"code answer\")\n```", Usage: u}, nil
}

// autoTokens is the direct prompt's count the choice compares: what a
// ModeAuto session with an unbounded window counts for ctxFile and query.
func autoTokens(t *testing.T, ctxFile, query string) int64 {
	t.Helper()
	s, err := Open(context.Background(), Spec{Mode: ModeAuto, ContextWindow: 1 << 40, AutoShare: 1}, WithProvider(&autoProvider{}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddFile(context.Background(), ctxFile)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.chooseAuto(store, h, query)
	if err != nil || a.Chosen != AutoDirect || !a.Counted {
		t.Fatalf("%v %+v", err, a)
	}
	return a.ContextTokens
}

// Spec.Mode auto answers with one direct call when the context and query
// take at most floor(share×window) tokens, and runs the RLM in code mode
// one token below; the choice is in Result.Auto, details.auto and a trace
// note.
func TestAutoChoosesAtTheBoundary(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "notes.txt")
	// Large enough that a window one token below its count still holds
	// the code-mode root's prompt and max_tokens.
	text := strings.Repeat("the billing service failed at 10:02 after the cache node restarted\n", 600)
	if err := os.WriteFile(ctxFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	const query = "Which service failed?"
	n := autoTokens(t, ctxFile, query)
	if n < int64(len(text))/8 {
		t.Fatalf("implausible count %d for %d bytes", n, len(text))
	}
	// The smallest window whose share 0.75 holds n tokens (the most a
	// call may take of its window beside its reserved output). (At share 1 a
	// window of exactly n tokens would choose the direct call, which the
	// window admission then refuses: it leaves no room for the reply.)
	w75 := int(n)
	for int64(math.Floor(0.75*float64(w75))) < n {
		w75++
	}
	for _, c := range []struct {
		name   string
		window int
		share  float64
		want   string
	}{
		{"share 0.75, threshold = tokens", w75, 0.75, AutoDirect},
		{"share 0.75, threshold = tokens - 1", w75 - 1, 0.75, AutoCode},
		{"default share, threshold = tokens", int(2 * n), 0, AutoDirect},
		{"default share, threshold = tokens - 1", int(2*n - 1), 0, AutoCode},
		{"share 0.25", int(4 * n), 0.25, AutoDirect},
		{"share 0.25, one below", int(4*n - 1), 0.25, AutoCode},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &autoProvider{}
			res, err := Run(context.Background(), Spec{Mode: ModeAuto, Context: []string{ctxFile}, ContextWindow: c.window, AutoShare: c.share}, query, WithProvider(p))
			if err != nil {
				t.Fatal(err)
			}
			a := res.Auto
			if a == nil || a.Chosen != c.want || a.Window != c.window || a.WindowSource != "spec" {
				t.Fatalf("auto %+v, want %s", a, c.want)
			}
			wantShare := c.share
			if wantShare == 0 {
				wantShare = DefaultAutoShare
			}
			if a.Share != wantShare || a.ContextBytes != int64(len(text)) {
				t.Fatalf("auto %+v", a)
			}
			if c.want == AutoDirect {
				if a.ContextTokens != n || a.Threshold != n || !a.Counted {
					t.Fatalf("auto %+v, want %d tokens at the threshold", a, n)
				}
				if p.direct != 1 || p.code != 0 || res.Answer != "direct answer" || res.Turns != 1 {
					t.Fatalf("direct %d code %d answer %v turns %d", p.direct, p.code, res.Answer, res.Turns)
				}
				if u := res.UsageByDepth[0]; u.Calls != 1 || res.Usage.Calls != 1 || res.Usage.TotalTokens != 55 {
					t.Fatalf("usage %+v by depth %+v", res.Usage, res.UsageByDepth)
				}
			} else {
				if a.Threshold != n-1 || a.ContextTokens <= a.Threshold {
					t.Fatalf("auto %+v, want above the threshold %d", a, n-1)
				}
				if p.direct != 0 || p.code == 0 || res.Answer != "code answer" {
					t.Fatalf("direct %d code %d answer %v", p.direct, p.code, res.Answer)
				}
			}
			var note *trace.Event
			for i, ev := range res.Trajectory {
				if ev.Kind == trace.KindNote && ev.Name == NoteAuto {
					note = &res.Trajectory[i]
				}
			}
			if note == nil || note.Attrs["chosen"] != c.want {
				t.Fatalf("no auto note choosing %s in the trace: %+v", c.want, note)
			}
			if env := res.Envelope(); env.Extra["auto"] != a {
				t.Fatalf("details.auto %v", env.Extra["auto"])
			}
		})
	}
}

// Without Spec.ContextWindow the window is the model table's, else the
// default; a large context stops being counted once past the threshold.
func TestAutoWindowSources(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(ctxFile, []byte(strings.Repeat("word ", 600_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model, source string
		window        int
	}{
		{"gpt-4o-mini", "table", 128_000},
		{"openai/gpt-4.1-mini", "table", 1_047_576},
		{"claude-sonnet-4-5", "table", 200_000},
		{"llama3.1", "default", model.DefaultContextWindow},
	} {
		t.Run(c.model, func(t *testing.T) {
			p := &autoProvider{}
			res, err := Run(context.Background(), Spec{Mode: ModeAuto, Model: c.model, Context: []string{ctxFile}, Limits: budget.Limits{MaxModelCalls: 5}}, "q", WithProvider(p))
			if err != nil {
				t.Fatal(err)
			}
			a := res.Auto
			if a.Window != c.window || a.WindowSource != c.source || a.Threshold != int64(c.window/2) {
				t.Fatalf("auto %+v", a)
			}
			// 600,000 words: above half of every window; the counting
			// stops at the piece that passes the threshold.
			if a.Chosen != AutoCode || a.Counted || a.ContextTokens <= a.Threshold {
				t.Fatalf("auto %+v, want code", a)
			}
		})
	}
}

// The direct path is admitted like every call: a token budget smaller
// than the prompt refuses it before it is sent.
func TestAutoDirectIsBudgeted(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(ctxFile, []byte(strings.Repeat("alpha beta gamma\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &autoProvider{}
	res, err := Run(context.Background(), Spec{Mode: ModeAuto, Context: []string{ctxFile}, Limits: budget.Limits{MaxTotalTokens: 100}}, "q", WithProvider(p))
	if err == nil || res == nil || res.Auto.Chosen != AutoDirect || p.direct != 0 || res.Error.Kind != budget.KindMaxTotalTokens {
		t.Fatalf("%v %+v direct calls %d", err, res, p.direct)
	}
}
