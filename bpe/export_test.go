package bpe

import "github.com/rlm-go/rlm/internal/tokens"

// Encode returns the token ids of text in the named encoding.
func Encode(enc, text string) []uint32 {
	ids := []uint32{}
	e, _ := tokens.ForModel(enc).(*encoding)
	e.encode(text, &ids)
	return ids
}

// Pieces returns the pre-tokenizer's pieces of text.
func Pieces(enc, text string) []string {
	e, _ := tokens.ForModel(enc).(*encoding)
	var out []string
	for i := 0; i < len(text); {
		j := e.next(text, i)
		out = append(out, text[i:j])
		i = j
	}
	return out
}
