// Command gentables writes the rank tables that package bpe embeds
// (bpe/tables/*.ranks) from the encodings compiled into
// github.com/tiktoken-go/tokenizer, which carries OpenAI's published
// cl100k_base and o200k_base files. Run it from bpe/ with go generate.
//
// It also writes tables/bmp.class: the class bits (package uclass) of
// every rune of the Basic Multilingual Plane, one byte each, so that the
// pre-tokenizer looks a class up rather than searching Go's unicode tables.
//
// The tables' layout is package vocab's.
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tiktoken-go/tokenizer"

	"github.com/rlm-go/rlm/bpe/internal/uclass"
	"github.com/rlm-go/rlm/bpe/internal/vocab"
)

func main() {
	dir := "tables"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	class := make([]byte, 0x10000)
	for r := range class {
		class[r] = uclass.Of(rune(r))
	}
	if err := os.WriteFile(filepath.Join(dir, "bmp.class"), class, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gentables:", err)
		os.Exit(1)
	}
	for _, e := range []tokenizer.Encoding{tokenizer.Cl100kBase, tokenizer.O200kBase} {
		if err := write(dir, e); err != nil {
			fmt.Fprintln(os.Stderr, "gentables:", err)
			os.Exit(1)
		}
	}
}

func write(dir string, e tokenizer.Encoding) error {
	codec, err := tokenizer.Get(e)
	if err != nil {
		return err
	}
	var toks [][]byte
	for id := uint(0); ; id++ {
		s, err := codec.Decode([]uint{id})
		if err != nil {
			break
		}
		if len(s) == 0 {
			return fmt.Errorf("%s: token %d has %d bytes", e, id, len(s))
		}
		toks = append(toks, []byte(s))
	}
	n := len(toks)
	slots := 1
	for slots < 2*n {
		slots <<= 1
	}
	index := make([]uint32, slots)
	longest := 0
	for id, t := range toks {
		h := vocab.Hash(string(t)) & uint64(slots-1)
		for probe := 0; ; probe++ {
			if index[h] == 0 {
				index[h] = uint32(id) + 1
				longest = max(longest, probe)
				break
			}
			if string(toks[index[h]-1]) == string(t) {
				return fmt.Errorf("%s: duplicate token %q", e, t)
			}
			h = (h + 1) & uint64(slots-1)
		}
	}
	fmt.Printf("%s: %d tokens, %d slots, longest probe %d\n", e, n, slots, longest)
	le := binary.LittleEndian
	var buf bytes.Buffer
	buf.Write(le.AppendUint32(nil, uint32(n)))
	buf.Write(le.AppendUint32(nil, uint32(slots)))
	off := uint32(0)
	buf.Write(le.AppendUint32(nil, off))
	for _, t := range toks {
		off += uint32(len(t))
		buf.Write(le.AppendUint32(nil, off))
	}
	for _, s := range index {
		buf.Write(le.AppendUint32(nil, s))
	}
	for _, t := range toks {
		buf.Write(t)
	}
	return os.WriteFile(filepath.Join(dir, string(e)+".ranks"), buf.Bytes(), 0o644)
}
