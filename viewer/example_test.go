package viewer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/viewer"
)

// Serve trace files to the viewer page. The page itself needs a browser;
// its JSON API, shown here through an httptest server, does not. A
// listener is loopback-only unless remote access is asked for.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "rlm-viewer-example")
	defer os.RemoveAll(dir)
	rec := trace.NewRecorder()
	ctx, run := trace.Start(trace.WithRecorder(context.Background(), rec), trace.KindRun, "question")
	_, call := trace.Start(ctx, trace.KindModelCall, "gpt-4o-mini")
	call.SetTokens(900, 40, 940)
	call.End(nil)
	run.End(nil)
	path := filepath.Join(dir, "run.json")
	if err := trace.WriteFile(path, "example", rec.Events(), 0); err != nil {
		fmt.Println(err)
		return
	}

	srv, err := viewer.New([]string{path}, viewer.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/api/files")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var files []viewer.FileInfo
	_ = json.NewDecoder(resp.Body).Decode(&files)
	for _, f := range files {
		fmt.Println(f.Name, f.Events, f.Summary.ModelCalls, f.Summary.Tokens, f.Summary.Status)
	}

	_, err = viewer.Listen("0.0.0.0:0", false)
	fmt.Println(fault.KindOf(err))
	// Output:
	// run.json 2 1 940 ok
	// addr_not_loopback
}
