// Package vocab is the layout of the rank tables that package bpe embeds
// and bpe/internal/gentables writes, and the hash that indexes them.
//
// A table is, all integers 4-byte little-endian:
//
//	n                 the number of tokens (a token's id is its rank)
//	slots             the size of the hash index, a power of two
//	offsets[n+1]      token id's bytes are bytes[offsets[id]:offsets[id+1]]
//	index[slots]      open addressing with linear probing from
//	                  Hash(token) & (slots-1): id+1, or 0 for an empty slot
//	bytes             the tokens' byte strings back to back
//
// The index is computed when the table is generated, so using a table
// builds nothing.
package vocab

// Header is the size of the two leading counts.
const Header = 8

// Hash is a deterministic 64-bit hash of s (the index must be the same
// in the generator and in every program), reading 8 bytes at a time.
func Hash(s string) uint64 {
	const m = 0x9e3779b97f4a7c15
	h := uint64(len(s)) * m
	for len(s) >= 8 {
		h = (h ^ Le64(s)) * m
		h ^= h >> 32
		s = s[8:]
	}
	var t uint64
	for i := 0; i < len(s); i++ {
		t |= uint64(s[i]) << (8 * i)
	}
	h = (h ^ t) * m
	h ^= h >> 29
	h *= m
	h ^= h >> 32
	return h
}

// Le64 reads the first 8 bytes of s as a little-endian integer.
func Le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Le32 reads the 4 bytes of s at i as a little-endian integer.
func Le32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}
