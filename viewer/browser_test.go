package viewer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rlm-go/rlm/demo"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/trace"
)

// The browser tests drive Debian's chromium (package chromium) through the
// DevTools protocol. They skip when it is absent, unless
// RLM_REQUIRE_CHROMIUM is set (.ci/run sets it after installing it).
// Screenshots go to $RLM_TEST_ARTIFACTS/viewer (default: a folder under
// the system's temporary directory).

// safety only keeps a broken test from hanging; no test asserts on time.
const safety = 3 * time.Minute

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("RLM_CHROMIUM"), "/usr/bin/chromium", "chromium", "chromium-browser"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("RLM_REQUIRE_CHROMIUM") != "" {
		t.Fatal("RLM_REQUIRE_CHROMIUM is set but chromium is not installed (apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium); skipping the browser test")
	return ""
}

func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("RLM_TEST_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "rlm-test-artifacts")
	}
	dir = filepath.Join(dir, "viewer")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser starts a fresh headless chromium and returns a tab context.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	t.Cleanup(cancel)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("enable-precise-memory-info", true),
		chromedp.WindowSize(1400, 900),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	tctx, tcancel := chromedp.NewContext(actx)
	t.Cleanup(func() { tcancel(); acancel() })
	if err := chromedp.Do(tctx); err != nil {
		t.Fatalf("cannot start chromium: %v", err)
	}
	return tctx
}

func run(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// poll waits until the JavaScript expression is true.
func poll(ctx context.Context, expr string) error {
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(safety)))
	return err
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100: PNG
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifacts(t), name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitVersion waits until the page has drawn a tree.
func waitVersion(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := poll(ctx, `document.body.dataset.version !== undefined`); err != nil {
		t.Fatal(err)
	}
}

func attr(t *testing.T, ctx context.Context, js string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(`+js+`)`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func demoTrace(t *testing.T, dir, mode string) (string, []trace.Event) {
	t.Helper()
	rec := trace.NewRecorder()
	out, err := demo.RunMode(trace.WithRecorder(context.Background(), rec), mode)
	if err != nil {
		t.Fatal(err)
	}
	evs := out.Result.Trajectory
	return writeTrace(t, dir, "demo-"+mode+".jsonl", evs), evs
}

// TestBrowserDemo loads the demo's traces (plan and code mode): the tree's
// node count and totals match the file, a node's detail opens, the
// timeline draws, and the comparison lists both runs.
func TestBrowserDemo(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	plan, evs := demoTrace(t, dir, engine.ModePlan)
	code, codeEvs := demoTrace(t, dir, engine.ModeCode)
	srv := serve(t, Options{}, plan, code)
	run(t, ctx, chromedp.Navigate(srv.URL+"/#tree"))
	waitVersion(t, ctx)
	tokens, cost, _ := totals(evs)
	if got := attr(t, ctx, `document.querySelector("#summary").dataset.events`); got != strconv.Itoa(len(evs)) {
		t.Fatalf("page shows %s events, the file has %d", got, len(evs))
	}
	if got := attr(t, ctx, `document.querySelector(".row[data-pos='0']").dataset.sn`); got != strconv.Itoa(len(evs)) {
		t.Fatalf("root subtree %s events, want %d", got, len(evs))
	}
	if got := attr(t, ctx, `document.querySelector(".row[data-pos='0']").dataset.stk`); got != strconv.FormatInt(tokens, 10) {
		t.Fatalf("root subtree %s tokens, want %d", got, tokens)
	}
	if got := attr(t, ctx, `document.querySelector("#summary").dataset.cost`); got != fmt.Sprintf("%.6f", cost) {
		t.Fatalf("page cost %s, want %.6f", got, cost)
	}
	// Per-depth usage, as the API summed it, in the header.
	var m Model
	if code := get(t, srv.URL+"/api/tree?file=0", &m); code != 200 || len(m.Summary.ByDepth) < 2 {
		t.Fatalf("status %d, by depth %+v", code, m.Summary.ByDepth)
	}
	var depths []string
	for _, d := range m.Summary.ByDepth {
		depths = append(depths, fmt.Sprintf("%d:%d:%d", d.Depth, d.ModelCalls, d.Tokens))
	}
	if got := attr(t, ctx, `document.querySelector("#summary").dataset.depths`); got != strings.Join(depths, ",") {
		t.Fatalf("page shows per-depth usage %q, the API %q", got, strings.Join(depths, ","))
	}
	if got := attr(t, ctx, `document.querySelector("#summary .depths").textContent`); !strings.Contains(got, "depth 1: ") {
		t.Fatalf("per-depth usage shown as %q", got)
	}
	screenshot(t, ctx, "demo-tree.png")
	// The first model call's detail.
	pos := attr(t, ctx, `(() => { const r = [...document.querySelectorAll(".row")].find(r => r.textContent.includes("model_call")); r.click(); return r.dataset.pos; })()`)
	run(t, ctx, chromedp.WaitVisible(chromedp.CSS(`#detail[data-pos="`+pos+`"]`)))
	if d := attr(t, ctx, `document.querySelector("#detail").textContent`); !strings.Contains(d, "tokens") || !strings.Contains(d, "prompt + ") {
		t.Fatalf("detail: %s", d)
	}
	screenshot(t, ctx, "demo-detail.png")
	run(t, ctx, chromedp.Click(chromedp.CSS(`button[data-view="timeline"]`)), chromedp.WaitVisible(chromedp.CSS(`.timeline .bar`)))
	if n := attr(t, ctx, `document.querySelectorAll(".timeline .bar").length`); n == "0" {
		t.Fatal("no timeline bars")
	}
	screenshot(t, ctx, "demo-timeline.png")
	run(t, ctx, chromedp.Click(chromedp.CSS(`button[data-view="compare"]`)), chromedp.WaitVisible(chromedp.CSS(`#compare table`)))
	cmp := attr(t, ctx, `document.querySelector("#compare").textContent`)
	codeTokens, _, _ := totals(codeEvs)
	if !strings.Contains(cmp, "demo-plan.jsonl") || !strings.Contains(cmp, "demo-code.jsonl") || !strings.Contains(cmp, strconv.FormatInt(codeTokens, 10)) {
		t.Fatalf("compare: %s", cmp)
	}
	screenshot(t, ctx, "demo-compare.png")
}

// TestBrowser100k loads a generated 100k-event trace: the counts and
// totals match, the list is virtualized (a few dozen rows in the DOM),
// filtering failed nodes finds each one, a failed node's detail shows its
// error kind. Load time and heap are logged (and written to
// figures-100k.txt among the artifacts), not asserted.
func TestBrowser100k(t *testing.T) {
	ctx := browser(t)
	evs := genTrace(100_000)
	path := writeTrace(t, t.TempDir(), "big.jsonl", evs)
	srv := serve(t, Options{}, path)
	start := time.Now()
	run(t, ctx, chromedp.Navigate(srv.URL+"/#tree"))
	waitVersion(t, ctx)
	load := time.Since(start)
	tokens, _, failed := totals(evs)
	if got := attr(t, ctx, `document.querySelector("#summary").dataset.events`); got != strconv.Itoa(len(evs)) {
		t.Fatalf("page shows %s events, want %d", got, len(evs))
	}
	if got := attr(t, ctx, `document.querySelector(".row[data-pos='0']").dataset.stk`); got != strconv.FormatInt(tokens, 10) {
		t.Fatalf("root tokens %s, want %d", got, tokens)
	}
	rows := attr(t, ctx, `document.querySelectorAll(".row").length`)
	if n, _ := strconv.Atoi(rows); n == 0 || n > 200 {
		t.Fatalf("%s rows in the DOM for %d events: not virtualized", rows, len(evs))
	}
	// Scroll to the end: the last event is drawn.
	attr(t, ctx, `document.querySelector("#list").scrollTop = 1e9`)
	if err := poll(ctx, `!!document.querySelector(".row[data-pos='`+strconv.Itoa(len(evs)-1)+`']")`); err != nil {
		t.Fatal(err)
	}
	heap := attr(t, ctx, `performance.memory ? performance.memory.usedJSHeapSize : 0`)
	// The tree's bytes on the wire and decoded (Resource Timing).
	treeWire := attr(t, ctx, `String((performance.getEntriesByType("resource").find(e => e.name.includes("/api/tree")) || {}).encodedBodySize)`)
	treeJSON := attr(t, ctx, `String((performance.getEntriesByType("resource").find(e => e.name.includes("/api/tree")) || {}).decodedBodySize)`)
	if w, j := atoi(treeWire), atoi(treeJSON); w <= 0 || w*4 > j {
		t.Fatalf("the tree crossed the wire as %s bytes for %s of JSON: not gzip-compressed", treeWire, treeJSON)
	}
	// Server time to the first byte, and the body's transfer (with decoding).
	treeWait := attr(t, ctx, `(e => e ? Math.round(e.responseStart - e.requestStart) : -1)(performance.getEntriesByType("resource").find(e => e.name.includes("/api/tree")))`)
	treeBody := attr(t, ctx, `(e => e ? Math.round(e.responseEnd - e.responseStart) : -1)(performance.getEntriesByType("resource").find(e => e.name.includes("/api/tree")))`)
	// Filter failed nodes.
	fstart := time.Now()
	attr(t, ctx, `(() => { const f = document.querySelector("#filter"); f.value = "failed"; f.dispatchEvent(new Event("change")); return 0; })()`)
	filter := time.Since(fstart)
	if got := attr(t, ctx, `document.querySelector("#count").textContent`); got != strconv.Itoa(failed)+" rows" {
		t.Fatalf("failed filter: %s, want %d rows", got, failed)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`.row[data-pos] .lab`)), chromedp.WaitVisible(chromedp.CSS(`#errkind`)))
	if k := attr(t, ctx, `document.querySelector("#errkind").textContent`); k != "execute/branch_failed" && k != "provider/rate_limited" {
		t.Fatalf("error kind %q", k)
	}
	screenshot(t, ctx, "big-failed.png")
	fig := fmt.Sprintf("events %d\nload_to_drawn_ms %d\nfilter_failed_ms %d\njs_heap_used_bytes %s\nfile_bytes %d\ntree_wire_bytes %s\ntree_json_bytes %s\ntree_server_ms %s\ntree_body_ms %s\n",
		len(evs), load.Milliseconds(), filter.Milliseconds(), heap, fileSize(path), treeWire, treeJSON, treeWait, treeBody)
	t.Log(fig)
	if err := os.WriteFile(filepath.Join(artifacts(t), "figures-100k.txt"), []byte(fig), 0o644); err != nil {
		t.Fatal(err)
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// appendEnv makes the test binary a helper process that appends the
// remaining events of a generated trace to a file, line by line.
const appendEnv = "RLM_VIEWER_TEST_APPEND"

// appendHelper runs in the helper process: it appends events [from, n) of
// genTrace(n) to the file, one line at a time, each line written in two
// pieces (so the follower also meets partial lines).
func appendHelper(spec string) {
	var path string
	var from, n int
	if _, err := fmt.Sscanf(spec, "%d %d %s", &from, &n, &path); err != nil {
		fmt.Fprintln(os.Stderr, "bad spec:", err)
		os.Exit(2)
	}
	var b strings.Builder
	if err := trace.WriteJSONL(&b, genTrace(n)); err != nil {
		os.Exit(2)
	}
	lines := strings.SplitAfter(b.String(), "\n")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		os.Exit(2)
	}
	defer f.Close()
	for _, l := range lines[from:] {
		half := len(l) / 2
		f.WriteString(l[:half])
		time.Sleep(5 * time.Millisecond)
		f.WriteString(l[half:])
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBrowserLive: the page follows a JSONL file that another process
// appends to, until it shows every event.
func TestBrowserLive(t *testing.T) {
	ctx := browser(t)
	const n = 120
	all := genTrace(n)
	path := writeTrace(t, t.TempDir(), "live.jsonl", all[:3])
	srv := serve(t, Options{Poll: 20 * time.Millisecond}, path)
	run(t, ctx, chromedp.Navigate(srv.URL+"/#tree"))
	waitVersion(t, ctx)
	if got := attr(t, ctx, `document.querySelector("#summary").dataset.events`); got != "3" {
		t.Fatalf("before appending: %s events", got)
	}
	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(os.Environ(), fmt.Sprintf("%s=3 %d %s", appendEnv, n, path))
	helper.Stderr = os.Stderr
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	err := poll(ctx, `document.querySelector("#summary").dataset.events === "`+strconv.Itoa(len(all))+`"`)
	if werr := helper.Wait(); werr != nil {
		t.Fatalf("append helper: %v", werr)
	}
	if err != nil {
		t.Fatalf("the page did not reach %d events: %v (shows %s)", len(all), err, attr(t, ctx, `document.querySelector("#summary").dataset.events`))
	}
	if attr(t, ctx, `document.querySelector("#live").classList.contains("on")`) != "true" {
		t.Fatal("the live marker is off")
	}
	screenshot(t, ctx, "live.png")
}
