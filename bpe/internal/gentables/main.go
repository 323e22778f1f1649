// Command gentables writes the rank tables that package bpe embeds
// (bpe/tables/*.ranks) from the encodings compiled into
// github.com/tiktoken-go/tokenizer, which carries OpenAI's published
// cl100k_base and o200k_base files. Run it from bpe/ with go generate.
//
// It also writes tables/bmp.class: the class bits (package uclass) of
// every rune of the Basic Multilingual Plane, one byte each, so that the
// pre-tokenizer looks a class up rather than searching Go's unicode tables.
//
// A table is the token byte strings in rank order (a token's rank is
// its id): a 4-byte little-endian count n, n lengths (one byte each),
// then the n byte strings back to back.
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tiktoken-go/tokenizer"

	"github.com/rlm-go/rlm/bpe/internal/uclass"
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
		if len(s) == 0 || len(s) > 255 {
			return fmt.Errorf("%s: token %d has %d bytes", e, id, len(s))
		}
		toks = append(toks, []byte(s))
	}
	seen := make(map[string]bool, len(toks))
	var buf bytes.Buffer
	buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(toks))))
	for _, t := range toks {
		if seen[string(t)] {
			return fmt.Errorf("%s: duplicate token %q", e, t)
		}
		seen[string(t)] = true
		buf.WriteByte(byte(len(t)))
	}
	for _, t := range toks {
		buf.Write(t)
	}
	return os.WriteFile(filepath.Join(dir, string(e)+".ranks"), buf.Bytes(), 0o644)
}
