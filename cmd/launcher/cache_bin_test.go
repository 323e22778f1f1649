package launcher

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --cache DIR: a rerun answers identical deterministic requests from the
// directory without calling the server and reports the savings; another
// key owner, a request without temperature 0 and --no-cache call again;
// an unusable directory is a configuration error before any call.
func TestCacheDirRerunSkipsPaidCalls(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("hello world\n"), 0o644)
	cacheDir := filepath.Join(dir, "cache")
	cs := &countingServer{}
	srv := httptest.NewServer(cs.wrap(replayHandler("gpt-4o-mini", `{"answer":"x"}`, `{"answer":"x"}`, `{"answer":"x"}`, `{"answer":"x"}`)))
	defer srv.Close()
	type usage struct {
		Calls       int64 `json:"calls"`
		TotalTokens int64 `json:"total_tokens"`
		SavedCalls  int64 `json:"saved_calls"`
		SavedTokens int64 `json:"saved_tokens"`
	}
	run := func(env []string, extra ...string) (usage, binResult) {
		t.Helper()
		args := append([]string{"run", "--context", ctxFile, "--base-url", srv.URL + "/v1", "--json"}, extra...)
		res := runBinary(t, nil, binaryEnv(env...), append(args, "q")...)
		var doc struct {
			Status string `json:"status"`
			Answer any    `json:"answer"`
			Usage  usage  `json:"usage"`
		}
		if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
			t.Fatalf("%v: %s %s", err, res.stdout, res.stderr)
		}
		if res.code == 0 && (doc.Status != "completed" || doc.Answer != "x") {
			t.Fatalf("%+v", doc)
		}
		return doc.Usage, res
	}
	cached := []string{"--cache", cacheDir, "--temperature", "0"}
	if u, res := run(nil, cached...); res.code != 0 || u.Calls != 1 || u.SavedCalls != 0 || cs.requests() != 1 {
		t.Fatalf("first run: %+v %d requests: %s", u, cs.requests(), res.stderr)
	}
	u, res := run(nil, cached...)
	if res.code != 0 || u.Calls != 0 || u.TotalTokens != 0 || u.SavedCalls != 1 || u.SavedTokens != 55 || cs.requests() != 1 {
		t.Fatalf("rerun: %+v %d requests: %s", u, cs.requests(), res.stderr)
	}
	// Without --json the usage line reports the hit.
	plain := runBinary(t, nil, nil, append([]string{"run", "--context", ctxFile, "--base-url", srv.URL + "/v1"}, append(cached, "q")...)...)
	if plain.code != 0 || !strings.Contains(plain.stderr, "cache hits 1 (saved 55 tokens)") || cs.requests() != 1 {
		t.Fatalf("plain rerun: %d %q %q", plain.code, plain.stdout, plain.stderr)
	}
	// Another key owner does not see the responses.
	if u, res := run([]string{"RLM_CACHE_TEST_KEY=sk-another-owner-0123456789"}, append(cached, "--api-key-env", "RLM_CACHE_TEST_KEY")...); res.code != 0 || u.Calls != 1 || cs.requests() != 2 {
		t.Fatalf("other owner: %+v %d requests: %s", u, cs.requests(), res.stderr)
	}
	// The server's default temperature is not deterministic: not cached.
	if u, res := run(nil, "--cache", cacheDir); res.code != 0 || u.Calls != 1 || cs.requests() != 3 {
		t.Fatalf("no temperature: %+v %d requests: %s", u, cs.requests(), res.stderr)
	}
	if u, res := run(nil, append(cached, "--no-cache")...); res.code != 0 || u.Calls != 1 || cs.requests() != 4 {
		t.Fatalf("--no-cache: %+v %d requests: %s", u, cs.requests(), res.stderr)
	}
	// --record with --cache DIR is refused before any call: the responses
	// read from DIR would be missing from the cassette, which then would
	// not replay the run.
	both := runBinary(t, nil, nil, append([]string{"run", "--context", ctxFile, "--base-url", srv.URL + "/v1", "--json", "--record", filepath.Join(dir, "c.json")}, append(cached, "q")...)...)
	if d := parseDoc(t, both.stdout); both.code == 0 || d.Error.Kind != "invalid_usage" || d.Error.Hint == "" || cs.requests() != 4 {
		t.Fatalf("--record with --cache: exit %d %s %s", both.code, both.stdout, both.stderr)
	}
	// An unusable directory fails before any call.
	file := filepath.Join(dir, "a-file")
	os.WriteFile(file, nil, 0o644)
	bad := runBinary(t, nil, nil, "run", "--context", ctxFile, "--base-url", srv.URL+"/v1", "--json", "--cache", filepath.Join(file, "sub"), "q")
	d := parseDoc(t, bad.stdout)
	if bad.code != 1 || d.Error.Phase != "config" || d.Error.Kind != "cache_unusable" || d.Error.Hint == "" || cs.requests() != 4 {
		t.Fatalf("unusable dir: exit %d %s %s", bad.code, bad.stdout, bad.stderr)
	}
}
