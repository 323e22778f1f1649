package corpus_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm/corpus"
)

// Register files as one context and search it: each match names its line,
// and in a composite context the file and the line within that file.
// Every operation is bounded by Limits and says when a limit cut it short.
func ExampleStore_Search() {
	dir, _ := os.MkdirTemp("", "rlm-corpus-example")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "api.log"), []byte("INFO start\nERROR db timeout\nINFO stop\n"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "web.log"), []byte("INFO start\nWARN slow\nERROR upstream 502\n"), 0o644)

	ctx := context.Background()
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddFiles(ctx, "logs", []string{dir}, corpus.FilesOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}

	res, err := store.Search(ctx, h, `^ERROR`, corpus.SearchOptions{Regex: true}, corpus.Limits{MaxResults: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range res.Value.([]corpus.Match) {
		fmt.Printf("%s:%d %s\n", filepath.Base(m.File), m.FileLine, m.Value)
	}

	// The same operation as the plan language writes it.
	var a corpus.Action
	_ = json.Unmarshal([]byte(`{"type":"search","pattern":"INFO","count_only":true}`), &a)
	res, _ = store.Do(ctx, h, a, corpus.Limits{})
	fmt.Println(res.Value, res.Truncated)
	// Output:
	// api.log:2 ERROR db timeout
	// web.log:3 ERROR upstream 502
	// 3 false
}
