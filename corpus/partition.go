package corpus

import (
	"bytes"
	"context"
	"unicode/utf8"
)

// Partition strategies.
const (
	StrategyBytes = "bytes"
	StrategyLines = "lines"
	StrategyPages = "pages" // PDF pages; see Partition
)

// PartitionOptions selects how Partition cuts a text.
type PartitionOptions struct {
	// Strategy is "bytes" (chunks of about Size bytes), "lines" (chunks
	// of Size lines) or "pages" (chunks of Size PDF pages).
	Strategy string
	// Size is the chunk size in bytes or lines; it must be positive.
	Size int64
	// WithText includes each chunk's text, bounded in total by MaxBytes.
	WithText bool
	// WithHandles registers each chunk as a sub-context and includes its
	// handle. The caller owns the handles and should Delete them.
	WithHandles bool
}

// Chunk describes one part of a partition: Length bytes starting at byte
// offset Start. Index counts chunks from 0.
type Chunk struct {
	Index  int64   `json:"index"`
	Start  int64   `json:"start"`
	Length int64   `json:"length"`
	Handle *Handle `json:"handle,omitempty"`
	Text   *string `json:"text,omitempty"`
	// Truncated marks a chunk whose text MaxBytes cut.
	Truncated bool `json:"truncated,omitempty"`
	// FirstPage and LastPage (strategy pages) are the 1-based numbers,
	// within their PDFs, of the chunk's first and last page.
	FirstPage int `json:"first_page,omitempty"`
	LastPage  int `json:"last_page,omitempty"`
}

// Partition cuts h into consecutive chunks that cover it exactly, returning
// []Chunk.
//
// With strategy "bytes" a chunk ends Size bytes after its start unless that
// is past the end of the text; it is shortened to just after the last '\n'
// in its last tenth if there is one, else to the start of the character
// holding its end (a chunk always holds at least one character). With
// strategy "lines" a chunk holds Size lines. With strategy "pages" (the
// text of a PDF, see AddFile, or a context holding PDFs) a chunk holds Size
// pages: it ends where the page after them starts, so page separators and
// any text before the first page (other files of a composite) belong to
// the chunk before; a text without pages fails with Kind invalid_action.
// An unknown strategy or a non-positive size fails with Kind
// invalid_action.
//
// MaxResults bounds the chunks; with WithText, MaxBytes bounds their total
// text and the list ends at the chunk whose text it cut. Either way the
// result is truncated.
func (s *Store) Partition(ctx context.Context, h Handle, opt PartitionOptions, lim Limits) (Result, error) {
	if opt.Strategy != StrategyBytes && opt.Strategy != StrategyLines && opt.Strategy != StrategyPages {
		return Result{}, newErr(KindInvalidAction, "unknown partition strategy").With("strategy", opt.Strategy)
	}
	if opt.Size <= 0 {
		return Result{}, newErr(KindInvalidAction, "partition size must be positive").With("size", opt.Size)
	}
	e, err := s.acquire(h)
	if err != nil {
		return Result{}, err
	}
	defer s.unref(e.back)
	o, err := newOp(ctx, e, lim)
	if err != nil {
		return Result{}, err
	}
	chunks := []Chunk{}
	r, err := guard(e, func() (Result, error) { return s.partition(ctx, h, o, opt, &chunks) })
	if err != nil {
		s.deleteChunks(chunks)
	}
	return r, err
}

// partition cuts o's text into *chunks (kept up to date, so that the
// caller can release their handles when it fails).
func (s *Store) partition(ctx context.Context, h Handle, o *op, opt PartitionOptions, out *[]Chunk) (Result, error) {
	data := o.e.data
	chunks := *out
	budget := o.lim.MaxBytes
	truncated := false
	var pages []PageInfo
	if opt.Strategy == StrategyPages {
		if pages = o.e.pagesIn(); len(pages) == 0 {
			return Result{}, newErr(KindInvalidAction, "the text has no pages to partition by").With("strategy", opt.Strategy).
				WithHint(`strategy "pages" needs the text of a PDF; use "lines" or "bytes"`)
		}
	}
	for start := 0; start < len(data); {
		if err := o.progress(start); err != nil {
			return Result{}, err
		}
		if len(chunks) == o.lim.MaxResults {
			truncated = true
			break
		}
		var end int
		var err error
		var first, last int
		switch opt.Strategy {
		case StrategyBytes:
			end = o.cutBytes(data, start, opt.Size)
		case StrategyPages:
			// Chunk k holds pages k*Size .. (k+1)*Size-1 of the view.
			k := int64(len(chunks))
			lo := min(k*opt.Size, int64(len(pages)-1))
			hi := min((k+1)*opt.Size, int64(len(pages)))
			first, last = pages[lo].Page, pages[hi-1].Page
			end = len(data)
			if hi < int64(len(pages)) {
				end = int(pages[hi].Offset)
			}
		default:
			end, err = o.cutLines(data, start, opt.Size)
			if err != nil {
				return Result{}, err
			}
		}
		c := Chunk{Index: int64(len(chunks)), Start: int64(start), Length: int64(end - start), FirstPage: first, LastPage: last}
		if opt.WithText {
			text := cutText(data[start:end], budget)
			if len(text) < end-start {
				c.Truncated, truncated = true, true
			}
			budget -= len(text)
			o.acc.BytesReturned += int64(len(text))
			if opt.Strategy != StrategyLines { // lines chunks were read whole already
				o.acc.BytesInspected += int64(len(text))
			}
			str := string(text)
			c.Text = &str
		}
		if opt.WithHandles {
			sh, err := s.Sub(ctx, h, c.Start, c.Length)
			if err != nil {
				return Result{}, err
			}
			c.Handle = &sh
		}
		o.acc.ItemsInspected++
		chunks = append(chunks, c)
		*out = chunks
		start = end
		if truncated {
			break
		}
	}
	return o.result(chunks, truncated), nil
}

// deleteChunks releases the handles of chunks after a failed partition.
func (s *Store) deleteChunks(chunks []Chunk) {
	for _, c := range chunks {
		if c.Handle != nil {
			_ = s.Delete(*c.Handle)
		}
	}
}

// cutBytes returns the end of the bytes-strategy chunk starting at start.
func (o *op) cutBytes(data []byte, start int, size int64) int {
	if size >= int64(len(data)-start) {
		return len(data)
	}
	t := start + int(size)
	lo := t - int(size/10)
	if j := bytes.LastIndexByte(data[lo:t], '\n'); j >= 0 {
		o.acc.BytesInspected += int64(t - lo - j)
		return lo + j + 1
	}
	o.acc.BytesInspected += int64(t - lo)
	if end := snapBack(data, t); end > start {
		return end
	}
	_, n := utf8.DecodeRune(data[start:])
	return start + n
}

// cutLines returns the end of the lines-strategy chunk starting at start:
// just past its size-th newline, or the end of the text. It never scans line
// by line: it counts newlines with bytes.Count in blocks of 64 KiB, then
// 4 KiB, then 256 bytes to home in on the block holding the size-th newline
// (skipping blocks likely to hold many more lines than are still needed),
// and finds it within that block with bytes.IndexByte.
func (o *op) cutLines(data []byte, start int, size int64) (int, error) {
	need, pos := size, start
	for _, block := range [...]int{64 << 10, 4 << 10, 256} {
		if need < int64(block/64) {
			continue // few lines left: a coarse block would overshoot
		}
		for {
			if pos == len(data) {
				o.acc.BytesInspected += int64(pos - start)
				return pos, nil
			}
			if err := o.progress(pos); err != nil {
				return 0, err
			}
			end := min(len(data), pos+block)
			c := int64(bytes.Count(data[pos:end], nl))
			if c >= need {
				break // the newline sought is in [pos, end): refine
			}
			need -= c
			pos = end
		}
	}
	for {
		j := bytes.IndexByte(data[pos:], '\n')
		if j < 0 {
			o.acc.BytesInspected += int64(len(data) - start)
			return len(data), nil
		}
		pos += j + 1
		if need--; need == 0 {
			o.acc.BytesInspected += int64(pos - start)
			return pos, nil
		}
	}
}
