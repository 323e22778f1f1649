// Package textgen generates deterministic pseudo-random text for the
// corpus benchmarks and measurements: lines of 1 to 20 words drawn from a
// small vocabulary that includes multi-byte UTF-8 words, with the word
// Needle placed on about one line in a thousand.
package textgen

import (
	"bufio"
	"io"
	"math/rand/v2"
)

// Needle is the rare word the generator plants.
const Needle = "zyzzyva"

var words = []string{
	"the", "of", "and", "to", "in", "is", "that", "for", "it", "as",
	"was", "with", "be", "by", "on", "not", "he", "this", "are", "or",
	"his", "from", "at", "which", "but", "have", "an", "had", "they", "you",
	"were", "their", "one", "all", "we", "can", "her", "has", "there", "been",
	"model", "context", "recursive", "language", "window", "budget", "token", "chunk",
	"error", "warning", "request", "response", "server", "latency", "value", "index",
	"café", "naïve", "Größe", "日本語", "résumé", "Ωmega", "😀", "façade",
}

// Generate writes exactly size bytes of text derived from seed to w. The
// text is valid UTF-8 and every line ends in '\n' except possibly the last.
func Generate(w io.Writer, size int64, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	bw := bufio.NewWriterSize(w, 1<<20)
	line := make([]byte, 0, 512)
	var written int64
	for written < size {
		line = line[:0]
		n := 1 + rng.IntN(20)
		needle := rng.IntN(1000) == 0
		at := rng.IntN(n)
		for i := range n {
			if i > 0 {
				line = append(line, ' ')
			}
			if needle && i == at {
				line = append(line, Needle...)
				continue
			}
			line = append(line, words[rng.IntN(len(words))]...)
		}
		line = append(line, '.', '\n')
		if rest := size - written; int64(len(line)) > rest {
			// Pad instead of cutting, so the text stays valid UTF-8.
			line = line[:0]
			for range rest {
				line = append(line, '.')
			}
		}
		if _, err := bw.Write(line); err != nil {
			return err
		}
		written += int64(len(line))
	}
	return bw.Flush()
}
