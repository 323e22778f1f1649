package tokens

import (
	"hash/maphash"
	"sync"
)

// Memo limits: texts shorter than MemoMinBytes are counted each time
// (counting them costs about what a look-up does: a conversation's
// messages of 16-127 bytes, a plan or an observation, took 1-2 µs each
// to count with o200k_base and about a tenth of that to look up; model's
// BenchmarkPromptTokensConversation); the memo holds at most
// memoShards × 2 × memoShardEntries counts (about 6 MiB), forgetting the
// least recently used half of a shard when it fills.
const (
	MemoMinBytes     = 16
	memoShards       = 16
	memoShardEntries = 2048
)

// memoKey names a text without holding it (a key that kept the text
// would keep alive the whole string it was cut from): its length and two
// 64-bit hashes under seeds drawn at random per process.
type memoKey struct {
	enc    string
	n      int
	h1, h2 uint64
}

// memoShard is a two-generation cache: counts go into cur; when cur is
// full it becomes old and a new cur starts, so old is dropped after a
// generation without use. A hit in old moves the count back into cur.
type memoShard struct {
	mu       sync.Mutex
	cur, old map[memoKey]int
}

var memo struct {
	seed1, seed2 maphash.Seed
	shards       [memoShards]memoShard
}

func init() {
	memo.seed1, memo.seed2 = maphash.MakeSeed(), maphash.MakeSeed()
}

// Memo returns count(c, text), remembering it per encoding and text in a
// process-wide, bounded, concurrency-safe memo: a conversation only grows,
// so the messages of a request were mostly counted for the turn before.
// Only exact counters (MethodExact) are memoized, and only texts of at
// least MemoMinBytes; count must be a pure function of c's encoding and
// text.
//
// A remembered count is the count of a text of the same encoding, length
// and pair of seeded 64-bit hashes: a different text would have to
// collide in both hashes at once (probability about 2^-128 per pair of
// texts), so a memoized count is, for all purposes, the count itself and
// budget admission stays worst-case safe.
func Memo(c Counter, text string, count func(Counter, string) int) int {
	if len(text) < MemoMinBytes || c.Method() != MethodExact {
		return count(c, text)
	}
	k := memoKey{enc: c.Encoding(), n: len(text), h1: maphash.String(memo.seed1, text), h2: maphash.String(memo.seed2, text)}
	s := &memo.shards[k.h1%memoShards]
	s.mu.Lock()
	n, ok := s.cur[k]
	if !ok {
		if n, ok = s.old[k]; ok {
			s.put(k, n)
		}
	}
	s.mu.Unlock()
	if ok {
		return n
	}
	n = count(c, text)
	s.mu.Lock()
	s.put(k, n)
	s.mu.Unlock()
	return n
}

// put stores k's count in cur, starting a new generation when cur is
// full. s.mu is held.
func (s *memoShard) put(k memoKey, n int) {
	if s.cur == nil || len(s.cur) >= memoShardEntries {
		s.old, s.cur = s.cur, make(map[memoKey]int, 64)
	}
	s.cur[k] = n
}

// memoLen returns the number of counts the memo holds (for tests).
func memoLen() int {
	n := 0
	for i := range memo.shards {
		s := &memo.shards[i]
		s.mu.Lock()
		n += len(s.cur) + len(s.old)
		s.mu.Unlock()
	}
	return n
}
