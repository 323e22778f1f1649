package viewer

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// cellExceptionTrace writes the trace of a code-mode run whose first cell
// raises (ZeroDivisionError) and whose second reply finishes, as rlm run
// --mode code --trace writes it.
func cellExceptionTrace(t *testing.T) (string, []trace.Event) {
	t.Helper()
	replies := []string{"```python\nprint(\"before\")\nx = 1 // 0\n```", "```python\nFINAL(\"recovered\")\n```"}
	turn := 0
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		turn++
		return &model.Response{Text: replies[min(turn, len(replies))-1]}, nil
	})
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", "some text\n")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Provider: prov, Model: "test-model", Store: store, Mode: engine.ModeCode})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || res.Answer != "recovered" {
		t.Fatalf("%v %+v", err, res)
	}
	return writeTrace(t, t.TempDir(), "cell.jsonl", res.Trajectory), res.Trajectory
}

// A code cell that raised is a failed node, like a failed plan step: its
// row has status error and its error kind, and it counts in the summary's
// failures and in its ancestors' subtree failures.
func TestAPICellExceptionIsFailed(t *testing.T) {
	path, evs := cellExceptionTrace(t)
	srv := serve(t, Options{}, path)
	var m Model
	if code := get(t, srv.URL+"/api/tree?file=0", &m); code != 200 {
		t.Fatalf("status %d", code)
	}
	if m.Summary.Failed != 1 || len(m.Nodes) != len(evs) {
		t.Fatalf("summary %+v, %d nodes for %d events", m.Summary, len(m.Nodes), len(evs))
	}
	var cells []Node
	for _, n := range m.Nodes {
		if n.Kind == trace.KindPlanStep && n.Name == "cell" {
			cells = append(cells, n)
		}
	}
	if len(cells) != 2 || cells[0].Status != trace.StatusError || cells[0].Err != "execute/cell_exception" || cells[1].Status != trace.StatusOK {
		t.Fatalf("cells %+v", cells)
	}
	if root := m.Nodes[0]; root.SubErr != 1 || root.Status != trace.StatusOK {
		t.Fatalf("root %+v", root)
	}
}

// In the page, the cell that raised shows ✗ in the failed style, the
// header counts 1 failed, and the failed filter finds exactly that cell,
// whose detail names the error kind.
func TestBrowserCellException(t *testing.T) {
	ctx := browser(t)
	path, _ := cellExceptionTrace(t)
	srv := serve(t, Options{}, path)
	run(t, ctx, chromedp.Navigate(srv.URL+"/#tree"))
	waitVersion(t, ctx)
	if got := attr(t, ctx, `document.querySelector("#summary").dataset.failed`); got != "1" {
		t.Fatalf("summary: %s failed", got)
	}
	if got := attr(t, ctx, `document.querySelector("#summary .err") ? document.querySelector("#summary .err").textContent : ""`); got != "1 failed" {
		t.Fatalf("summary failures shown as %q", got)
	}
	cell := attr(t, ctx, `(() => { const r = [...document.querySelectorAll(".row")].filter(r => r.textContent.includes("plan_step cell")); `+
		`return r.map(x => (x.querySelector(".st-error") ? "error:" : "ok:") + x.querySelector(".lab").textContent).join("|"); })()`)
	rows := strings.Split(cell, "|")
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "error:") || !strings.Contains(rows[0], "✗") || !strings.Contains(rows[0], "execute/cell_exception") ||
		!strings.HasPrefix(rows[1], "ok:") || strings.Contains(rows[1], "✗") {
		t.Fatalf("cell rows %q", rows)
	}
	screenshot(t, ctx, "cell-exception.png")
	attr(t, ctx, `(() => { const f = document.querySelector("#filter"); f.value = "failed"; f.dispatchEvent(new Event("change")); return 0; })()`)
	if got := attr(t, ctx, `document.querySelector("#count").textContent`); got != strconv.Itoa(1)+" rows" {
		t.Fatalf("failed filter: %s", got)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`.row[data-pos] .lab`)), chromedp.WaitVisible(chromedp.CSS(`#errkind`)))
	if k := attr(t, ctx, `document.querySelector("#errkind").textContent`); k != "execute/cell_exception" {
		t.Fatalf("error kind %q", k)
	}
	if d := attr(t, ctx, `document.querySelector("#detail").textContent`); !strings.Contains(d, "ZeroDivisionError") {
		t.Fatalf("detail: %s", d)
	}
}
