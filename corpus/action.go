package corpus

import "context"

// Action types accepted by Do.
const (
	ActionPeek      = "peek"
	ActionSlice     = "slice"
	ActionSearch    = "search"
	ActionPartition = "partition"
	ActionMap       = "map"
	ActionReduce    = "reduce"
)

// Action is one context operation in the JSON shape the plan language uses,
// for example {"type":"search","pattern":"ERROR"},
// {"type":"slice","start":0,"length":4096},
// {"type":"peek","selector":"head","count":1024},
// {"type":"partition","strategy":"lines","size":1000},
// {"type":"map","transform":"lowercase"} or
// {"type":"reduce","reducer":"count"}.
type Action struct {
	// Type is peek, slice, search, partition, map or reduce.
	Type string `json:"type"`

	// Selector (peek) is head, tail or metadata (the default); Count is the
	// number of bytes for head and tail (0: as many as max_bytes allows).
	Selector string `json:"selector,omitempty"`
	Count    int64  `json:"count,omitempty"`

	// Start and Length (slice) select a byte range; length 0 means through
	// the end.
	Start  int64 `json:"start,omitempty"`
	Length int64 `json:"length,omitempty"`

	// Pattern (search) is a literal unless Regex is set; CountOnly returns
	// the number of matching lines.
	Pattern   string `json:"pattern,omitempty"`
	Regex     bool   `json:"regex,omitempty"`
	CountOnly bool   `json:"count_only,omitempty"`

	// Strategy (partition) is bytes, lines or pages; Size the chunk size; WithText
	// and WithHandles add each chunk's text and sub-context handle.
	Strategy    string `json:"strategy,omitempty"`
	Size        int64  `json:"size,omitempty"`
	WithText    bool   `json:"with_text,omitempty"`
	WithHandles bool   `json:"with_handles,omitempty"`

	// Transform (map) is identity, lowercase, uppercase or length.
	Transform string `json:"transform,omitempty"`

	// Reducer (reduce) is count or byte_count.
	Reducer string `json:"reducer,omitempty"`

	// DPI (image) is the resolution a page is rendered at (0:
	// DefaultImageDPI; MinImageDPI..MaxImageDPI). The image action is
	// run by the engine (Store.PageImage), not Do.
	DPI int64 `json:"dpi,omitempty"`
}

// Do runs action a on h under lim, dispatching on a.Type. An unknown type
// fails with Kind invalid_action.
func (s *Store) Do(ctx context.Context, h Handle, a Action, lim Limits) (Result, error) {
	switch a.Type {
	case ActionPeek:
		return s.Peek(ctx, h, a.Selector, a.Count, lim)
	case ActionSlice:
		return s.Slice(ctx, h, a.Start, a.Length, lim)
	case ActionSearch:
		return s.Search(ctx, h, a.Pattern, SearchOptions{Regex: a.Regex, CountOnly: a.CountOnly}, lim)
	case ActionPartition:
		return s.Partition(ctx, h, PartitionOptions{Strategy: a.Strategy, Size: a.Size, WithText: a.WithText, WithHandles: a.WithHandles}, lim)
	case ActionMap:
		return s.Map(ctx, h, a.Transform, lim)
	case ActionReduce:
		return s.Reduce(ctx, h, a.Reducer, lim)
	}
	return Result{}, newErr(KindInvalidAction, "unknown action type").With("type", a.Type)
}
