package viewer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rlm-go/rlm/trace"
)

// docScreenshot writes the element sel's screenshot among the artifacts
// and, with RLM_UPDATE_SCREENSHOTS=1, to docs/img (the README's).
func docScreenshot(t *testing.T, ctx context.Context, sel, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifacts(t), name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("RLM_UPDATE_SCREENSHOTS") != "" {
		if err := os.WriteFile(filepath.Join("..", "docs", "img", name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserIterationView: the page opens on the run view of a
// code-mode run (codeRunTrace): the question, the answer and the figures;
// a strip of three iterations whose first is marked failed; the first
// iteration's cell marked ✗ (never ✓) with its highlighted code, its
// output and its exception; the second's sub-call with its reply and its
// child RLM as a nested run, whose own iteration opens in place.
func TestBrowserIterationView(t *testing.T) {
	ctx := browser(t)
	path, _ := codeRunTrace(t, t.TempDir())
	srv := serve(t, Options{}, path)
	run(t, ctx, chromedp.EmulateViewport(1000, 700), chromedp.Navigate(srv.URL+"/"))
	if err := poll(ctx, `document.body.dataset.iterOpen !== undefined`); err != nil {
		t.Fatal(err)
	}
	q := func(js string) string { return attr(t, ctx, js) }
	card := `document.querySelector("#runview > .run")`
	if got := q(card + `.querySelector(".q").textContent`); !strings.Contains(got, "Which line mentions disk?") {
		t.Fatalf("question: %q", got)
	}
	if got := q(card + `.querySelector(".a").textContent`); !strings.Contains(got, "The disk line: disk full on /var") {
		t.Fatalf("answer: %q", got)
	}
	if got := q(`[...` + card + `.querySelectorAll(".stats .stat")].map(s => s.textContent.trim()).join("|")`); !strings.Contains(got, "3 turns|2 sub-calls|1 child|1 max depth|600 tokens|") ||
		!strings.Contains(got, "|1 failed") {
		t.Fatalf("stats: %q", got)
	}
	chips := q(`[...document.querySelectorAll("#runview > .run > .strip .chip")].map(c => (c.classList.contains("fail") ? "fail:" : "ok:") + c.querySelector(".m").textContent).join(",")`)
	if chips != "fail:✗,ok:✓,ok:✓" {
		t.Fatalf("strip %q", chips)
	}
	// The first iteration is open: its cell raised.
	cell := `document.querySelector("#runview > .run > .iter .cell")`
	if got := q(cell + `.classList.contains("fail") + ":" + ` + cell + `.querySelector(".cellhead .m").textContent`); got != "true:✗" {
		t.Fatalf("failed cell shown as %q", got)
	}
	if got := q(cell + `.querySelector(".exc").textContent`); !strings.Contains(got, "ZeroDivisionError") {
		t.Fatalf("exception %q", got)
	}
	if got := q(cell + `.querySelector(".out").textContent`); got != "lines: 4\n" {
		t.Fatalf("stdout %q", got)
	}
	// Highlighted code: builtins, the RLM's names, numbers.
	if got := q(`[...` + cell + `.querySelectorAll("pre.code span")].map(s => s.className + "=" + s.textContent).join(" ")`); !strings.Contains(got, "tok-b=print") ||
		!strings.Contains(got, "tok-r=context") || !strings.Contains(got, "tok-s=\"lines:\"") || !strings.Contains(got, "tok-n=0") {
		t.Fatalf("highlighted code: %q", got)
	}
	if got := q(`document.querySelector(".iteration pre.reply").textContent`); !strings.Contains(got, "Let me look at the input first.") {
		t.Fatalf("reply %q", got)
	}
	docScreenshot(t, ctx, "#runview", "trace-run-failed-cell.png")
	// The second iteration: a sub-call and a child.
	run(t, ctx, chromedp.Click(chromedp.CSS(`#runview > .run > .strip .chip:nth-child(2)`)))
	if err := poll(ctx, `document.querySelector("#runview > .run > .iter .iteration h3").textContent.includes("Iteration 2")`); err != nil {
		t.Fatal(err)
	}
	if got := q(`document.querySelector("#runview > .run > .iter .call").textContent`); !strings.Contains(got, "sub-model") || !strings.Contains(got, "A short summary of the log") {
		t.Fatalf("sub-call %q", got)
	}
	child := `document.querySelector("#runview > .run > .iter .kids > .run.child")`
	if got := q(child + `.querySelector(".q").textContent + "|" + ` + child + `.querySelector(".a").textContent`); !strings.Contains(got, "Find the line about the disk.") || !strings.Contains(got, "disk full on /var") {
		t.Fatalf("child %q", got)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`#runview .kids > .run.child > .strip .chip`)))
	if err := poll(ctx, `!!document.querySelector("#runview .kids > .run.child > .iter .cell pre.code")`); err != nil {
		t.Fatal(err)
	}
	if got := q(child + `.querySelector(".iter .cell").textContent`); !strings.Contains(got, "FINAL") {
		t.Fatalf("child's cell %q", got)
	}
	// Tall enough for the whole iteration and its child.
	run(t, ctx, chromedp.EmulateViewport(1000, 1300))
	docScreenshot(t, ctx, "#runview", "trace-run-child.png")
	// No cell that raised shows ✓ anywhere: the tree marks it too.
	run(t, ctx, chromedp.Click(chromedp.CSS(`button[data-view="tree"]`)))
	waitVersion(t, ctx)
	if got := q(`[...document.querySelectorAll(".row")].filter(r => r.textContent.includes("plan_step cell") && r.querySelector(".st-error")).length`); got != "1" {
		t.Fatalf("%s failed cells in the tree", got)
	}
}

// TestBrowserRunView100k: a 100k-event code-mode trace (genCodeTrace)
// opens on the run view without fetching the tree; the strip draws its
// chips a chunk at a time; an iteration far down the strip opens with its
// cell, sub-calls and failure marks. Time to first paint (navigation to
// the run view drawn, in the page's clock) and to open an iteration
// (click to drawn, fetch included) are logged and written to
// figures-runview-100k.txt among the artifacts, not asserted.
func TestBrowserRunView100k(t *testing.T) {
	ctx := browser(t)
	evs := genCodeTrace(100_000)
	path := writeTrace(t, t.TempDir(), "big-code.jsonl", evs)
	srv := serve(t, Options{}, path)
	run(t, ctx, chromedp.Navigate(srv.URL+"/"))
	if err := poll(ctx, `document.body.dataset.iterOpen !== undefined && document.body.dataset.firstPaint !== undefined`); err != nil {
		t.Fatal(err)
	}
	firstPaint := attr(t, ctx, `document.body.dataset.firstPaint`)
	firstIter := attr(t, ctx, `document.body.dataset.iterMs`)
	turns := 0
	for _, ev := range evs {
		if ev.Kind == trace.KindTurn && ev.Depth == 0 {
			turns++
		}
	}
	if got := attr(t, ctx, `document.querySelector("#runview > .run").dataset.turns`); got != strconv.Itoa(turns) {
		t.Fatalf("run view shows %s turns, the trace has %d", got, turns)
	}
	if got := attr(t, ctx, `document.querySelectorAll("#runview > .run > .strip .chip").length`); got != "200" {
		t.Fatalf("%s chips drawn at first (want one chunk of 200 for %d turns)", got, turns)
	}
	if got := attr(t, ctx, `performance.getEntriesByType("resource").some(e => e.name.includes("/api/tree"))`); got != "false" {
		t.Fatal("the run view fetched the whole tree")
	}
	runsBytes := attr(t, ctx, `String((performance.getEntriesByType("resource").find(e => e.name.includes("/api/runs")) || {}).decodedBodySize)`)
	// Every 7th iteration's cell raised: its chip is marked, never ✓.
	if got := attr(t, ctx, `(c => c.classList.contains("fail") + ":" + c.querySelector(".m").textContent)(document.querySelector("#runview > .run > .strip .chip:nth-child(7)"))`); got != "true:✗" {
		t.Fatalf("chip 7 %q", got)
	}
	// Open iteration 140 (a failed one, with sub-calls).
	pos := attr(t, ctx, `document.querySelector("#runview > .run > .strip .chip:nth-child(140)").dataset.iter`)
	run(t, ctx, chromedp.Click(chromedp.CSS(`#runview > .run > .strip .chip:nth-child(140)`)))
	if err := poll(ctx, `document.body.dataset.iterOpen === "`+pos+`" && !!document.querySelector('#runview > .run > .iter .iteration[data-pos="`+pos+`"]')`); err != nil {
		t.Fatal(err)
	}
	openMS := attr(t, ctx, `document.body.dataset.iterMs`)
	it := `document.querySelector("#runview > .run > .iter .iteration")`
	if got := attr(t, ctx, it+`.querySelector("h3").textContent`); !strings.Contains(got, "Iteration 140") {
		t.Fatalf("opened %q", got)
	}
	if got := attr(t, ctx, it+`.querySelectorAll(".call").length + ":" + `+it+`.querySelector(".cell").classList.contains("fail")`); got != "3:true" {
		t.Fatalf("iteration 140: calls:failed = %s", got)
	}
	// The next chunk of chips.
	run(t, ctx, chromedp.Click(chromedp.CSS(`#runview > .run > .strip .more`)))
	if got := attr(t, ctx, `document.querySelectorAll("#runview > .run > .strip .chip").length`); got != "400" {
		t.Fatalf("%s chips after one more chunk", got)
	}
	heap := attr(t, ctx, `performance.memory ? performance.memory.usedJSHeapSize : 0`)
	fig := fmt.Sprintf("events %d\nturns %d\nfirst_paint_ms %s\nfirst_iteration_open_ms %s\niteration_140_open_ms %s\nruns_json_bytes %s\njs_heap_used_bytes %s\nfile_bytes %d\n",
		len(evs), turns, firstPaint, firstIter, openMS, runsBytes, heap, fileSize(path))
	t.Log(fig)
	if err := os.WriteFile(filepath.Join(artifacts(t), "figures-runview-100k.txt"), []byte(fig), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserLiveRunView follows a run as rlm run --trace x.jsonl writes
// it, from before the file exists: the page says it waits for it; once
// written mid-run (spans in flight as start lines) the run view shows the
// run running, both turns counted, the spans in flight and the iteration
// in flight (its cell running, its sub-call in flight); once the run
// ends, its answer and no span in flight.
func TestBrowserLiveRunView(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "live.jsonl")
	srv := serve(t, Options{Poll: 20 * time.Millisecond, Wait: true}, path)
	run(t, ctx, chromedp.Navigate(srv.URL+"/"))
	if err := poll(ctx, `!!document.querySelector("#waiting")`); err != nil {
		t.Fatal(err)
	}
	if got := attr(t, ctx, `document.querySelector("#waiting").textContent`); !strings.Contains(got, "Waiting for live.jsonl") {
		t.Fatalf("waiting message %q", got)
	}
	b := newEvb()
	runEv := b.add("", 0, trace.KindRun, "rlm", trace.StatusOK, map[string]any{"query": "q?", "answer": "42"})
	t1 := b.add("e1", 0, trace.KindTurn, "turn 1", trace.StatusOK, nil)
	mc1 := b.add("e2", 0, trace.KindModelCall, "gpt", trace.StatusOK, nil)
	t2 := b.add("e1", 0, trace.KindTurn, "turn 2", trace.StatusOK, nil)
	mc2 := b.add("e4", 0, trace.KindModelCall, "gpt", trace.StatusOK, nil)
	cell := b.add("e4", 0, trace.KindPlanStep, "cell", trace.StatusOK, map[string]any{"cell": 1, "final": true})
	sub := b.add("e6", 1, trace.KindModelCall, "mini", trace.StatusOK, nil)
	appendLines := func(evs ...trace.Event) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := trace.WriteJSONL(f, evs); err != nil {
			t.Fatal(err)
		}
	}
	appendLines(started(*runEv), started(*t1), started(*mc1), *mc1, *t1, started(*t2), started(*mc2), *mc2, started(*cell), started(*sub))
	if err := poll(ctx, `!!document.querySelector("#runview > .run .badge.st-started")`); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `!!document.querySelector('#runview > .run > .strip .chip.flight')`); err != nil {
		t.Fatal(err)
	}
	card := `document.querySelector("#runview > .run")`
	if got := attr(t, ctx, card+`.dataset.turns + "|" + [...`+card+`.querySelectorAll(".stats .stat")].map(s => s.textContent.trim()).join("|")`); !strings.HasPrefix(got, "2|2 turns") || !strings.Contains(got, "|3 in flight") {
		t.Fatalf("live run: %q", got)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`#runview > .run > .strip .chip.flight`)))
	if err := poll(ctx, `!!document.querySelector("#runview > .run > .iter .cell.flight .call.flight")`); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "live-run.png")
	appendLines(*sub, *cell, *t2, *runEv)
	if err := poll(ctx, `!!document.querySelector("#runview > .run .badge.st-ok")`); err != nil {
		t.Fatal(err)
	}
	if got := attr(t, ctx, card+`.querySelector(".a").textContent + "|" + document.querySelectorAll("#runview .flight").length`); got != "answer 42|0" {
		t.Fatalf("ended run: %q", got)
	}
}

// TestBrowserHighlighter runs the page's Python highlighter over a table
// of inputs: each piece's class, the text given back whole, and markup in
// the code escaped (never an element).
func TestBrowserHighlighter(t *testing.T) {
	ctx := browser(t)
	path, _ := codeRunTrace(t, t.TempDir())
	srv := serve(t, Options{}, path)
	run(t, ctx, chromedp.Navigate(srv.URL+"/#tree"))
	waitVersion(t, ctx)
	for _, tc := range []struct{ code, want string }{
		{`x = 1  # one`, `tok-n=1 tok-c=# one`},
		{`def f(a): return len(a)`, `tok-k=def tok-f=f tok-k=return tok-b=len`},
		{`s = f"{x}" + r'\d' + b"\"q\""`, `tok-s=f"{x}" tok-s=r'\d' tok-s=b"\"q\""`},
		{"doc = \"\"\"a\n# not a comment\n\"\"\"", "tok-s=\"\"\"a\n# not a comment\n\"\"\""},
		{`FINAL(llm_query(context[:10]))`, `tok-r=FINAL tok-r=llm_query tok-r=context tok-n=10`},
		{`@cache` + "\n" + `class C: pass`, `tok-d=@cache tok-k=class tok-f=C tok-k=pass`},
		{`print("</pre><b id=pwn>")  # <i>`, `tok-b=print tok-s="</pre><b id=pwn>" tok-c=# <i>`},
		{`s = "unterminated`, `tok-s="unterminated`},
		{`n = 0x1F + 1.5e3 + .5 + 2j`, `tok-n=0x1F tok-n=1.5e3 tok-n=.5 tok-n=2j`},
	} {
		js := `(() => { const d = document.createElement("pre"); d.innerHTML = highlightPython(` + strconv.Quote(tc.code) + `);` +
			`return (d.textContent === ` + strconv.Quote(tc.code) + ` ? "" : "TEXT CHANGED ") + (d.querySelector("b,i") ? "ELEMENT " : "") +` +
			`[...d.querySelectorAll("span")].map(s => s.className + "=" + s.textContent).join(" "); })()`
		if got := attr(t, ctx, js); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.code, got, tc.want)
		}
	}
}
