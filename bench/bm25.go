package bench

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// BM25 ranking (Robertson and Spärck Jones's probabilistic model in the
// form of Robertson and Zaragoza, "The Probabilistic Relevance
// Framework: BM25 and Beyond", Foundations and Trends in IR 3(4), 2009,
// eq. 3.15, with the non-negative IDF Lucene's BM25Similarity uses).
// A document D's score for a query Q is the sum over Q's distinct terms
// t that occur in D of
//
//	idf(t) · tf(t,D)·(k1+1) / (tf(t,D) + k1·(1 − b + b·|D|/avgdl))
//	idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
//
// with N documents, df(t) of them holding t, |D| D's length in terms and
// avgdl the mean length. Terms are the maximal runs of letters and
// digits, lower-cased (no stemming, no stop words).
const (
	BM25K1 = 1.2
	BM25B  = 0.75
)

// BM25Index ranks a fixed set of documents for queries.
type BM25Index struct {
	docs  []suite.Doc
	tf    []map[string]int
	lens  []int
	df    map[string]int
	avgdl float64
}

// BM25Hit is one ranked document.
type BM25Hit struct {
	DocID string  `json:"docid"`
	Score float64 `json:"score"`
	Text  string  `json:"text"`
}

// bm25Terms splits text into its terms.
func bm25Terms(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// NewBM25Index indexes docs.
func NewBM25Index(docs []suite.Doc) *BM25Index {
	ix := &BM25Index{docs: docs, df: map[string]int{}}
	total := 0
	for _, d := range docs {
		tf := map[string]int{}
		terms := bm25Terms(d.Text)
		for _, t := range terms {
			tf[t]++
		}
		for t := range tf {
			ix.df[t]++
		}
		ix.tf = append(ix.tf, tf)
		ix.lens = append(ix.lens, len(terms))
		total += len(terms)
	}
	if len(docs) > 0 {
		ix.avgdl = float64(total) / float64(len(docs))
	}
	return ix
}

// Search returns the k best documents for query with a positive score,
// best first (ties in document order).
func (ix *BM25Index) Search(query string, k int) []BM25Hit {
	seen := map[string]bool{}
	var terms []string
	for _, t := range bm25Terms(query) {
		if !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	n := float64(len(ix.docs))
	var hits []BM25Hit
	for i, d := range ix.docs {
		score := 0.0
		for _, t := range terms {
			f := float64(ix.tf[i][t])
			if f == 0 {
				continue
			}
			df := float64(ix.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			norm := 1 - BM25B
			if ix.avgdl > 0 {
				norm += BM25B * float64(ix.lens[i]) / ix.avgdl
			}
			score += idf * f * (BM25K1 + 1) / (f + BM25K1*norm)
		}
		if score > 0 {
			hits = append(hits, BM25Hit{DocID: d.ID, Score: score, Text: d.Text})
		}
	}
	slices.SortStableFunc(hits, func(a, b BM25Hit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[:min(k, len(hits))]
}

// Bounds of the retriever tool.
const (
	// RetrieverTool is the name of the codeact method's BM25 tool
	// (capability tool:search_documents).
	RetrieverTool = "search_documents"
	// RetrieverDefaultK and RetrieverMaxK bound its k.
	RetrieverDefaultK = 5
	RetrieverMaxK     = 50
)

// bm25Tools offers one index as the tool RetrieverTool (engine.Tools):
// call_tool("search_documents", query="...", k=5) in code mode returns
// the hits, a list of {"docid", "score", "text"}. The engine grants and
// checks the capability before a call reaches it.
type bm25Tools struct{ ix *BM25Index }

func (bm25Tools) Schemas() []model.Tool {
	return []model.Tool{{
		Name:        RetrieverTool,
		Description: "BM25 search over the task's documents: the k (default 5, at most 50) best documents for query, best first, each {\"docid\", \"score\", \"text\"}",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"k":{"type":"integer","minimum":1,"maximum":50}},"required":["query"],"additionalProperties":false}`),
	}}
}

func (t bm25Tools) Call(_ context.Context, _ capability.Set, name string, args json.RawMessage) (json.RawMessage, error) {
	if name != RetrieverTool {
		return nil, fault.New(fault.PhaseTool, fault.KindInvalid, "unknown tool").With("tool", name)
	}
	var in struct {
		Query *string `json:"query"`
		K     *int    `json:"k"`
	}
	dec := json.NewDecoder(strings.NewReader(string(args)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil || in.Query == nil {
		return nil, fault.New(fault.PhaseTool, fault.KindInvalid, "search_documents takes query (a string) and k (an integer)").
			WithHint(`call_tool("search_documents", query="words to match", k=5)`)
	}
	k := RetrieverDefaultK
	if in.K != nil {
		k = *in.K
	}
	if k < 1 || k > RetrieverMaxK {
		return nil, fault.New(fault.PhaseTool, fault.KindInvalid, "k out of range").With("k", k).With("max", RetrieverMaxK)
	}
	hits := t.ix.Search(*in.Query, k)
	if hits == nil {
		hits = []BM25Hit{}
	}
	return json.Marshal(hits)
}
