package viewer

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

func TestAcceptsGzip(t *testing.T) {
	for _, c := range []struct {
		header string
		want   bool
	}{
		{"gzip", true},
		{"gzip, deflate, br, zstd", true},
		{"GZip;q=0.5", true},
		{"br", false},
		{"", false},
		{"identity", false},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"gzip;q=x", false},
		{"*", true},
		{"*;q=0", false},
		{"*, gzip;q=0", false},
		{"deflate, *;q=0.1", true},
		{"gzip;q=0, *", false},
	} {
		if got := acceptsGzip([]string{c.header}); got != c.want {
			t.Errorf("Accept-Encoding %q: %v, want %v", c.header, got, c.want)
		}
	}
	if !acceptsGzip([]string{"br", "gzip"}) || acceptsGzip(nil) {
		t.Fatal("several header lines")
	}
}

// fetchTree gets /api/tree with the given Accept-Encoding (the transport
// then leaves the body as sent) and returns the response and its body.
func fetchTree(t *testing.T, url, enc string) (*http.Response, []byte) {
	t.Helper()
	return fetchEncoded(t, url+"/api/tree?file=0", enc)
}

func fetchEncoded(t *testing.T, url, enc string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept-Encoding", enc)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	if resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) || resp.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("headers %v for %d bytes", resp.Header, len(body))
	}
	return resp, body
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTreeGzip: the tree is served gzip-compressed to a client that
// accepts it, byte-identical once decompressed to the plain answer, and
// the compressed copy follows the file when it grows.
func TestTreeGzip(t *testing.T) {
	evs := genTrace(2000)
	dir := t.TempDir()
	path := writeTrace(t, dir, "a.jsonl", evs[:1500])
	srv := serve(t, Options{}, path)
	resp, plain := fetchTree(t, srv.URL, "identity")
	if resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("identity got %q", resp.Header.Get("Content-Encoding"))
	}
	resp, z := fetchTree(t, srv.URL, "gzip, deflate, br")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip accepted, got Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	if !bytes.Equal(gunzip(t, z), plain) {
		t.Fatal("the gzipped tree differs from the plain one")
	}
	if len(z)*4 > len(plain) {
		t.Fatalf("gzip %d bytes of %d: less than 4x smaller", len(z), len(plain))
	}
	if resp, _ := fetchTree(t, srv.URL, "gzip;q=0"); resp.Header.Get("Content-Encoding") != "" {
		t.Fatal("gzip;q=0 was gzipped")
	}
	// The file grows: the compressed answer is the new version.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteJSONL(f, evs[1500:]); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, z = fetchTree(t, srv.URL, "gzip")
	var m Model
	if err := json.Unmarshal(gunzip(t, z), &m); err != nil || len(m.Nodes) != len(evs) {
		t.Fatalf("after the append: %d nodes, want %d (%v)", len(m.Nodes), len(evs), err)
	}
}

// /api/runs is compressed as /api/tree is, and its cached answers follow
// the file when it grows.
func TestRunsGzip(t *testing.T) {
	evs := genTrace(2000)
	dir := t.TempDir()
	path := writeTrace(t, dir, "a.jsonl", evs[:1500])
	srv := serve(t, Options{}, path)
	url := srv.URL + "/api/runs?file=0"
	resp, plain := fetchEncoded(t, url, "identity")
	if resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("identity got %q", resp.Header.Get("Content-Encoding"))
	}
	resp, z := fetchEncoded(t, url, "gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, z), plain) {
		t.Fatalf("gzip: Content-Encoding %q, or the body differs from the plain one", resp.Header.Get("Content-Encoding"))
	}
	if len(z) >= len(plain) {
		t.Fatalf("gzip %d bytes of %d", len(z), len(plain))
	}
	var before Runs
	if err := json.Unmarshal(plain, &before); err != nil || len(before.Runs) == 0 {
		t.Fatalf("runs %+v: %v", before, err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteJSONL(f, evs[1500:]); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, enc := range []string{"identity", "gzip"} {
		_, b := fetchEncoded(t, url, enc)
		if enc == "gzip" {
			b = gunzip(t, b)
		}
		var after Runs
		if err := json.Unmarshal(b, &after); err != nil || after.Version == before.Version {
			t.Fatalf("%s after the append: version %d (before %d): %v", enc, after.Version, before.Version, err)
		}
	}
}
