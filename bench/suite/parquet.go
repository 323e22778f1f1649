package suite

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"

	"github.com/rlm-go/rlm/fault"
)

// decodeParquet calls each for every row of a Parquet file (how the
// Hugging Face hub serves OOLONG-synth), each row turned into the same
// field map a JSON record gives. A file the Parquet reader cannot read, or
// that makes it panic, is suite_malformed.
func decodeParquet(path string, ra io.ReaderAt, size int64, each func(*record) error) (err error) {
	index := 0
	malformed := func(msg string) error {
		return fault.New(fault.PhaseParse, KindMalformed, msg).With("file", path).With("record", index+1).With("field", "")
	}
	defer func() {
		if p := recover(); p != nil {
			err = malformed(fmt.Sprintf("the Parquet reader failed: %v", p))
		}
	}()
	f, err := parquet.OpenFile(ra, size)
	if err != nil {
		return fault.Wrap(err, fault.PhaseParse, KindMalformed, "not a readable Parquet file (truncated?)").
			With("file", path).With("record", 1).With("field", "")
	}
	r := parquet.NewGenericReader[map[string]any](f, f.Schema())
	defer r.Close()
	rows := make([]map[string]any, 1)
	for {
		rows[0] = map[string]any{}
		n, rerr := r.Read(rows)
		if n == 1 {
			index++
			rec := &record{file: path, index: index, fields: make(map[string]json.RawMessage, len(rows[0]))}
			for k, v := range rows[0] {
				b, jerr := json.Marshal(v)
				if jerr != nil {
					return rec.fail(k, "a Parquet value has no JSON form")
				}
				rec.fields[k] = b
			}
			if err := each(rec); err != nil {
				return err
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return fault.Wrap(rerr, fault.PhaseParse, KindMalformed, "reading the Parquet file failed").
				With("file", path).With("record", index+1).With("field", "")
		}
		if n == 0 {
			break
		}
	}
	if index == 0 {
		return malformed("the file holds no record")
	}
	return nil
}
