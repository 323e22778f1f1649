package corpus

import (
	"context"
	"errors"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// Error kinds reported by the store. All errors have phase fault.PhaseContext.
const (
	// KindInvalidPattern: an empty search pattern, a literal pattern
	// containing a newline, or a regular expression that does not compile.
	KindInvalidPattern fault.Kind = "invalid_pattern"
	// KindOutOfRange: an offset beyond the end of the text, or a negative
	// offset or length.
	KindOutOfRange fault.Kind = "out_of_range"
	// KindInvalidLimit: a negative limit, or one above its hard cap.
	KindInvalidLimit fault.Kind = "invalid_limit"
	// KindStaleHandle: the handle was deleted, its store was closed, or its
	// version is not the current one.
	KindStaleHandle fault.Kind = "stale_handle"
	// KindUnknownHandle: the handle was never issued by this store.
	KindUnknownHandle fault.Kind = "unknown_handle"
	// KindOutputTooLarge: Text was asked for more bytes than its limit.
	KindOutputTooLarge fault.Kind = "output_too_large"
	// KindInvalidTransform: map was given a transform outside the closed set.
	KindInvalidTransform fault.Kind = "invalid_transform"
	// KindInvalidReducer: reduce was given a reducer outside the closed set.
	KindInvalidReducer fault.Kind = "invalid_reducer"
	// KindInvalidAction: Do was given an unknown action type, or an action
	// whose arguments (selector, strategy, size, count) are malformed.
	KindInvalidAction fault.Kind = "invalid_action"
	// KindTooManyFiles: AddFiles was given more files than MaxFiles.
	KindTooManyFiles fault.Kind = "too_many_files"
	// KindContextTooLarge: AddFiles was given more bytes than MaxTotalBytes.
	KindContextTooLarge fault.Kind = "context_too_large"
	// KindNoFiles: AddFiles found no file to add.
	KindNoFiles fault.Kind = "no_files"
	// KindStoreClosed: a text was registered after Close.
	KindStoreClosed fault.Kind = "store_closed"
	// KindContextChanged: the file behind a mapped text was truncated (or
	// otherwise shrunk) while it was registered, so part of the text is
	// gone: reading it faulted. Detail "handle", "path" when known, and
	// "offset" of the faulting byte within the mapping.
	KindContextChanged fault.Kind = "context_changed"
	// KindNotAPage: a page image was asked of a handle that is not a
	// page of a PDF (see Store.PageImage). Detail "handle".
	KindNotAPage fault.Kind = "not_a_page"
)

func newErr(kind fault.Kind, msg string) *fault.Error {
	return fault.New(fault.PhaseContext, kind, msg)
}

// ctxErr converts the error of an ended context into the store's kinds:
// time_limit_exceeded for an expired deadline (as operations report it),
// cancelled otherwise.
func ctxErr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fault.Wrap(err, fault.PhaseContext, budget.KindTimeLimit, "context deadline exceeded")
	}
	return fault.Wrap(err, fault.PhaseContext, fault.KindCancelled, "cancelled")
}
