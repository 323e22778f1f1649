package fault

import "context"

var (
	errCanceled = context.Canceled
	errDeadline = context.DeadlineExceeded
)
