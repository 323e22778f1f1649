package bench

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// A worked example of BM25 (k1 1.2, b 0.75, idf ln(1 + (N − df + 0.5) /
// (df + 0.5))). Three documents of 6, 3 and 4 terms (avgdl 13/3):
//
//	d1 "the cat sat on the mat", d2 "the dog sat", d3 "cat cat cat dog"
//
// "cat mat": idf(cat) = ln 1.6 = 0.470004 (df 2), idf(mat) = ln(8/3) =
// 0.980829 (df 1); d1 = 2.2/(1 + 1.2·(0.25 + 0.75·6/(13/3))) · (0.470004
// + 0.980829) = 1.253590; d3 = 3·2.2/(3 + 1.2·(0.25 + 0.75·4/(13/3))) ·
// 0.470004 = 0.750956; d2 holds neither term and is left out. "dog": the
// shorter d2 (0.537684) before d3 (0.485275), b at work.
func TestBM25WorkedExample(t *testing.T) {
	ix := NewBM25Index([]suite.Doc{{ID: "d1", Text: "the cat sat on the mat"}, {ID: "d2", Text: "the dog sat"}, {ID: "d3", Text: "cat cat cat dog"}})
	type want struct {
		id    string
		score float64
	}
	cases := []struct {
		query string
		k     int
		want  []want
	}{
		{"cat mat", 5, []want{{"d1", 1.2535897411650578}, {"d3", 0.7509555193535218}}},
		{"Cat, MAT! cat", 5, []want{{"d1", 1.2535897411650578}, {"d3", 0.7509555193535218}}}, // case, punctuation, a repeated term
		{"dog", 5, []want{{"d2", 0.5376841518571216}, {"d3", 0.48527450528621086}}},
		{"cat mat", 1, []want{{"d1", 1.2535897411650578}}},
		{"unicorn", 5, nil},
	}
	for _, c := range cases {
		got := ix.Search(c.query, c.k)
		if len(got) != len(c.want) {
			t.Fatalf("%q: %d hits %+v, want %d", c.query, len(got), got, len(c.want))
		}
		for i, w := range c.want {
			if got[i].DocID != w.id || math.Abs(got[i].Score-w.score) > 1e-9 {
				t.Fatalf("%q: hit %d is %s %.9f, want %s %.9f", c.query, i, got[i].DocID, got[i].Score, w.id, w.score)
			}
		}
	}
}

// The retriever tool checks its arguments: a bad call is an error the
// cell sees, not a silent default.
func TestRetrieverToolArguments(t *testing.T) {
	tools := bm25Tools{ix: NewBM25Index([]suite.Doc{{ID: "a", Text: "alpha beta"}, {ID: "b", Text: "beta gamma"}})}
	out, err := tools.Call(context.Background(), capability.Set{}, RetrieverTool, json.RawMessage(`{"query":"gamma"}`))
	if err != nil {
		t.Fatal(err)
	}
	var hits []BM25Hit
	if err := json.Unmarshal(out, &hits); err != nil || len(hits) != 1 || hits[0].DocID != "b" || hits[0].Text != "beta gamma" {
		t.Fatalf("%s %v", out, err)
	}
	for _, args := range []string{`{}`, `{"query":3}`, `{"query":"x","k":0}`, `{"query":"x","k":51}`, `{"query":"x","top":2}`} {
		if _, err := tools.Call(context.Background(), capability.Set{}, RetrieverTool, json.RawMessage(args)); fault.KindOf(err) != fault.KindInvalid {
			t.Fatalf("%s: %v", args, err)
		}
	}
}
