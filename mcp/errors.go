package mcp

import "github.com/rlm-go/rlm/fault"

// Phase is the phase of every error this package reports.
const Phase fault.Phase = "mcp"

// Error kinds (phase mcp). docs/mcp.md lists what each means and what the
// user can do about it.
const (
	// KindUnknownServer: a tool name, resource URI or call names a server
	// the configuration does not have.
	KindUnknownServer fault.Kind = "unknown_server"
	// KindStartFailed: the server could not be started or did not complete
	// the initialize handshake (command not found, connection refused, ...).
	KindStartFailed fault.Kind = "start_failed"
	// KindStartTimeout: the server did not complete initialize within the
	// start timeout.
	KindStartTimeout fault.Kind = "start_timeout"
	// KindServerCrashed: the server process exited, or the connection
	// closed, while a request was outstanding.
	KindServerCrashed fault.Kind = "server_crashed"
	// KindMalformedMessage: the server wrote something that is not a JSON
	// message on its stdout (or the SDK refused it as JSON-RPC).
	KindMalformedMessage fault.Kind = "malformed_message"
	// KindMessageTooLarge: one message from the server exceeded
	// max_message_bytes (default 4 MiB); the connection is dropped.
	KindMessageTooLarge fault.Kind = "message_too_large"
	// KindServerUnavailable: the server died recently and is in its restart
	// back-off, or it exhausted its restarts for this run.
	KindServerUnavailable fault.Kind = "server_unavailable"
	// KindCallFailed: the server answered the request with a JSON-RPC error.
	KindCallFailed fault.Kind = "call_failed"
	// KindInvalidResource: a resource read returned no usable contents.
	KindInvalidResource fault.Kind = "invalid_resource"
	// KindClosed: the host was closed.
	KindClosed fault.Kind = "closed"
)

func newErr(kind fault.Kind, msg string) *fault.Error { return fault.New(Phase, kind, msg) }
