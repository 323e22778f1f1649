//go:build !unix

package launcher

// onParentCancel: there is no SIGUSR1 here; the parent agent is cancelled
// only through the runtime (agent.Runtime.Cancel).
func onParentCancel(func()) (stop func()) { return func() {} }
