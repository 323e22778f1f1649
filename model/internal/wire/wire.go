// Package wire holds the HTTP details the model providers (model/openai,
// model/anthropic) share: Retry-After parsing, bounded reads, cutting
// server text, merging Request.Extra into a body.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rlm-go/rlm/model"
)

// Truncate cuts s to at most n bytes at a UTF-8 boundary, adding an
// ellipsis when it cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// ParseRetryAfter reads retry-after-ms (milliseconds, as sent by OpenAI) or
// Retry-After (delay seconds or an HTTP date).
func ParseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		// A value past the float range parses as +Inf with ErrRange: it is
		// capped like any huge value, not ignored.
		if ms, err := strconv.ParseFloat(v, 64); (err == nil || errors.Is(err, strconv.ErrRange)) && ms >= 0 {
			return time.Duration(min(ms, 1e9) * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	// A count past int64 parses as ±MaxInt64 with ErrRange: capped below.
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if secs < 0 {
			return 0, false
		}
		if secs > 1e6 {
			secs = 1e6
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// ErrTooLarge reports a body longer than its bound.
var ErrTooLarge = errors.New("body too large")

// BoundedReader reads at most left bytes from r and then fails with
// ErrTooLarge, so that a server streaming without end cannot make
// the provider buffer without limit.
type BoundedReader struct {
	R    io.Reader
	Left int64
}

func (b *BoundedReader) Read(p []byte) (int, error) {
	if b.Left <= 0 {
		// Report the excess only if there is any: a body of exactly the
		// limit ends normally.
		var one [1]byte
		n, err := b.R.Read(one[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.Left {
		p = p[:b.Left]
	}
	n, err := b.R.Read(p)
	b.Left -= int64(n)
	return n, err
}

// MergeExtra adds the fields of extra (model.Request.Extra) to the JSON
// object body, under keys body does not set and reserved does not name
// (fields the provider's decoding depends on). A field that does not
// encode is reported with its name.
func MergeExtra(body []byte, extra map[string]any, reserved map[string]bool) ([]byte, error) {
	if len(extra) == 0 {
		return body, nil
	}
	var merged map[string]json.RawMessage
	if err := json.Unmarshal(body, &merged); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, set := merged[k]; set || reserved[k] {
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("extra field %q: %w", k, err)
		}
		merged[k] = raw
	}
	return json.Marshal(merged)
}

// CheckImage checks an image a request is about to send: it has data,
// and a media type of the four formats both wire formats accept.
func CheckImage(im model.Image) error {
	switch im.MediaType {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return fmt.Errorf("media type %q is not image/png, image/jpeg, image/gif or image/webp", im.MediaType)
	}
	if len(im.Data) == 0 {
		return errors.New("the image has no data")
	}
	return nil
}
