package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// script is an in-process provider that answers each request with the
// next reply of its list (or of the function, when set).
type script struct {
	mu      sync.Mutex
	replies []string
	calls   int
	answer  func(req model.Request) (*model.Response, error)
}

func (s *script) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	s.mu.Lock()
	i := s.calls
	s.calls++
	s.mu.Unlock()
	if s.answer != nil {
		return s.answer(req)
	}
	text := `{"answer":"out of script"}`
	if i < len(s.replies) {
		text = s.replies[i]
	}
	return &model.Response{Text: text, Usage: budget.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, TokensKnown: true}}, nil
}

// scriptedEngine is an engine over a store holding text as "input", with
// provider p.
func scriptedEngine(t testing.TB, text string, cfg Config, p model.Provider) (*Engine, corpus.Handle) {
	t.Helper()
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", text)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Provider = p
	cfg.Store = store
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	eng, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng, h
}

// A code-mode answer that holds an integer beyond 64 bits is still
// bounded by max_output_bytes.
func TestCodeFinalBigIntIsBoundedByMaxOutput(t *testing.T) {
	p := &script{replies: []string{py(`FINAL([10**400, "x" * 5000])`)}}
	eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode, Limits: budget.Limits{MaxOutputBytes: 1000}}, p)
	res, err := eng.Run(context.Background(), "q", h)
	if fault.KindOf(err) != budget.KindMaxOutputBytes {
		t.Fatalf("err %v, answer type %T", err, res.Answer)
	}
}

// In a session, a sub-context made by an earlier query is released when
// that query ends. Slicing or indexing it later (operations that cannot
// return an error) is an exception the model sees, as find or text of it
// are, not the end of the run; nothing computed from it finishes the run.
func TestSessionReleasedSubcontextSliceIsAnException(t *testing.T) {
	for _, cell := range []string{`x = parts[0][:5]`, `x = parts[0][0]`, `FINAL(parts[0][:5])`, `print("before")` + "\n" + `FINAL(parts[0][2])`} {
		t.Run(cell, func(t *testing.T) {
			p := &script{}
			p.answer = func(req model.Request) (*model.Response, error) {
				last := req.Messages[len(req.Messages)-1].Content
				text := py(`FINAL("unexpected")`)
				switch {
				case strings.Contains(last, "Query: one"):
					text = py(`parts = context.partition(lines=1)`, `FINAL(len(parts))`)
				case strings.Contains(last, "Query: two"):
					text = py(cell)
				case strings.Contains(last, "ValueError") && strings.Contains(last, "stale_handle"):
					text = py(`FINAL("recovered")`)
				}
				return &model.Response{Text: text}, nil
			}
			eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode}, p)
			s, err := eng.NewSession(h)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Ask(context.Background(), "one"); err != nil {
				t.Fatal(err)
			}
			res, err := s.Ask(context.Background(), "two")
			if err != nil {
				t.Fatalf("the run ended: %v", err)
			}
			if res.Answer != "recovered" {
				t.Fatalf("answer %#v", res.Answer)
			}
		})
	}
}

// A host that cancels with a plain error as the cause
// (context.WithCancelCause) gets a cancelled run, whichever phase notices
// it; a passed caller deadline with a plain cause is a timeout. Neither is
// an internal error.
func TestPlainCancelCauseIsCancellation(t *testing.T) {
	shutdown := errors.New("host shutting down")
	for _, mode := range []string{ModePlan, ModeCode} {
		for _, reply := range []string{"no json and no code here", steps(map[string]any{"op": "checkpoint", "label": "x"}), py(`print(1)`)} {
			t.Run(mode+"/"+reply, func(t *testing.T) {
				ctx, cancel := context.WithCancelCause(context.Background())
				defer cancel(nil)
				p := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) {
					cancel(shutdown)
					return &model.Response{Text: reply}, nil
				})
				eng, h := scriptedEngine(t, haystack, Config{Mode: mode}, p)
				res, err := eng.Run(ctx, "root", h)
				if fault.KindOf(err) != fault.KindCancelled || res.Status != StatusCancelled {
					t.Fatalf("status %s, err %v", res.Status, err)
				}
			})
		}
	}
}

// A provider (or executor) that returns neither a response nor an error
// fails the call with a typed error, charged as a call, instead of
// crashing the run: at the root, and in a sub-call, where it is an
// observation the model can react to.
func TestNilResponseIsTypedError(t *testing.T) {
	t.Run("root", func(t *testing.T) {
		p := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) { return nil, nil })
		eng, h := scriptedEngine(t, haystack, Config{}, p)
		res, err := eng.Run(context.Background(), "root", h)
		if fault.KindOf(err) != model.KindMalformedResponse || res.Usage.Calls != 1 {
			t.Fatalf("err %v, calls %d", err, res.Usage.Calls)
		}
	})
	t.Run("sub-call", func(t *testing.T) {
		p := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
			last := req.Messages[len(req.Messages)-1].Content
			switch {
			case strings.Contains(last, "Query: root"):
				return &model.Response{Text: steps(map[string]any{"op": "model", "prompt": "sub", "bind": "s"})}, nil
			case strings.Contains(last, string(model.KindMalformedResponse)):
				return &model.Response{Text: `{"answer":"recovered"}`}, nil
			}
			return nil, nil
		})
		eng, h := scriptedEngine(t, haystack, Config{}, p)
		res, err := eng.Run(context.Background(), "root", h)
		if err != nil || res.Answer != "recovered" || res.Usage.Calls != 3 {
			t.Fatalf("err %v, answer %v, calls %d", err, res.Answer, res.Usage.Calls)
		}
	})
}

// Configuration errors carry their advice as the error's hint (printed on
// its own line, "hint" in JSON), never in the detail.
func TestConfigErrorsHaveHints(t *testing.T) {
	for _, cfg := range []Config{{Mode: "bogus"}, {Python: "bogus"}} {
		cfg.Provider = model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) { return nil, nil })
		cfg.Model = "m"
		cfg.Store = corpus.NewStore()
		defer cfg.Store.Close()
		_, err := New(cfg)
		fe := fault.As(err)
		if fe == nil || fe.Hint == "" || fe.Detail["hint"] != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
	}
}
