package corpus

import (
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/fault"
)

// Handle names one version of a text registered in a Store. It is opaque to
// callers: they pass it back to the store that issued it. Its JSON form is
// {"id":"ctx-3","version":1} and its String form "ctx-3@1".
type Handle struct {
	// ID identifies the text within its store, "ctx-N".
	ID string `json:"id"`
	// Version counts replacements of the text under ID, starting at 1.
	Version uint64 `json:"version"`
}

// String returns the handle as "id@version".
func (h Handle) String() string {
	return h.ID + "@" + strconv.FormatUint(h.Version, 10)
}

// IsZero reports whether h is the zero Handle.
func (h Handle) IsZero() bool { return h == Handle{} }

// ParseHandle parses the String form of a Handle. A malformed string fails
// with Kind unknown_handle.
func ParseHandle(s string) (Handle, error) {
	id, ver, ok := strings.Cut(s, "@")
	v, err := strconv.ParseUint(ver, 10, 64)
	if !ok || err != nil || v == 0 {
		return Handle{}, newErr(KindUnknownHandle, "malformed handle").With("handle", s)
	}
	if _, ok := idNumber(id); !ok {
		return Handle{}, newErr(KindUnknownHandle, "malformed handle").With("handle", s)
	}
	return Handle{ID: id, Version: v}, nil
}

const idPrefix = "ctx-"

func idString(n uint64) string { return idPrefix + strconv.FormatUint(n, 10) }

// idNumber returns N for an ID "ctx-N" with N > 0.
func idNumber(id string) (uint64, bool) {
	rest, ok := strings.CutPrefix(id, idPrefix)
	if !ok || rest == "" || rest[0] == '0' || rest[0] == '+' {
		return 0, false
	}
	n, err := strconv.ParseUint(rest, 10, 64)
	return n, err == nil
}

func staleErr(h Handle, why string) *fault.Error {
	return newErr(KindStaleHandle, why).With("handle", h.String())
}
