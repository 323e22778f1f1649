package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/internal/pdfgen"
	"github.com/rlm-go/rlm/internal/pdftest"
	"github.com/rlm-go/rlm/model"
)

// pdfContext registers a generated 3-page PDF ("Page N says hello" on
// page N) in store, with an engine whose caches are the test's (wazero's
// compilation cache is kept between runs in os.TempDir()).
func pdfContext(t *testing.T, store *corpus.Store) corpus.Handle {
	t.Helper()
	store.SetPDFReader(pdftest.Engine(t))
	b, err := pdfgen.Pages(3, func(p int) []string { return []string{fmt.Sprintf("Page %d says hello", p)} })
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := store.AddFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A PDF context: both modes' system prompts say how to reach its pages,
// and code mode's context.pages[i], partition(pages=N) and search hits'
// "page" work as the prompt says; plan mode partitions by pages.
func TestPDFContextModes(t *testing.T) {
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h := pdfContext(t, store)
	for mode, want := range map[string]string{ModeCode: "context.pages[0]", ModePlan: `"strategy":"pages"`} {
		if p := systemPrompt0(t, store, h, mode); !strings.Contains(p, "3 pages") || !strings.Contains(p, want) {
			t.Errorf("%s prompt lacks the pages:\n%s", mode, p)
		}
	}
	for _, tc := range []struct {
		mode, reply, want string
	}{
		{ModeCode, py(`FINAL(str(context.pages[1]) + "|" + str(len(context.partition(pages=2))) + "|" + str(context.search("hello")[2]["page"]) + "|" + str(len(context.pages)) + "|" + context.pages[2].upper())`),
			"Page 2 says hello\n|2|3|3|PAGE 3 SAYS HELLO\n"},
		{ModePlan, `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"partition","strategy":"pages","size":2},"bind":"parts"},` +
			`{"op":"final","value":{"text":{"ref":"index","value":{"ref":"var","name":"parts"},"index":1}}}]}`, "Page 3 says hello\n"},
	} {
		prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
			return &model.Response{Text: tc.reply}, nil
		})
		eng, err := New(Config{Provider: prov, Model: "test-model", Store: store, Mode: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		res, err := eng.Run(context.Background(), "q", h)
		if err != nil {
			t.Fatalf("%s: %v", tc.mode, err)
		}
		if res.Answer != tc.want {
			t.Errorf("%s: answer %q, want %q", tc.mode, res.Answer, tc.want)
		}
	}
}
