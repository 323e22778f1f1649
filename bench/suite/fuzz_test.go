package suite

import (
	"bytes"
	"os"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// fuzzDecode runs one loader's record decoding over untrusted bytes: it
// must not panic, and every failure must be a typed suite error.
func fuzzDecode(f *testing.F, seeds []string, decode func(*record) error) {
	for _, s := range seeds {
		if b, err := os.ReadFile(td(s)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"id": 1}`))
	f.Add([]byte(`[{"_id": "x"}, `))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Parquet container parsing is the library's; the target fuzzes
		// the JSON reading and the record decoding, which are ours.
		if bytes.HasPrefix(data, parquetMagic) {
			return
		}
		err := decodeBytes("fuzz", data, decode)
		if err == nil {
			return
		}
		switch fault.KindOf(err) {
		case KindMalformed:
		default:
			t.Fatalf("untyped error %v", err)
		}
	})
}

func FuzzOolongRecord(f *testing.F) {
	fuzzDecode(f, []string{"oolong/synth.jsonl", "oolong/real.jsonl", "oolong/wrong_type.jsonl"}, func(r *record) error {
		var t Task
		var err error
		if _, synth := r.raw("answer_type"); synth {
			t, err = decodeOolongSynth(r)
		} else {
			t, err = decodeOolongReal(r)
		}
		if err == nil {
			Score(t, "Answer: 3")
		}
		return err
	})
}

func FuzzPairsRecord(f *testing.F) {
	fuzzDecode(f, []string{"oolong-pairs/pairs.jsonl", "oolong-pairs/wrong_type.jsonl"}, func(r *record) error {
		t, err := decodePairs(r)
		if err == nil {
			Score(t, t.Answer)
		}
		return err
	})
}

func FuzzLongBenchRecord(f *testing.F) {
	fuzzDecode(f, []string{"longbench-v2/data.json", "longbench-v2/truncated.json"}, func(r *record) error {
		t, err := decodeLongBench(r)
		if err == nil {
			Score(t, "The correct answer is (A)")
		}
		return err
	})
}

func FuzzBrowseCompRecord(f *testing.F) {
	fuzzDecode(f, []string{"browsecomp-plus/queries.jsonl", "browsecomp-plus/corpus.jsonl"}, func(r *record) error {
		t, _, err := decodeBrowseComp(r)
		if err == nil {
			Score(t, "Exact Answer: x")
		}
		return err
	})
}
