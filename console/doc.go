// Package console renders a run for a person at a terminal, as the rlm
// command does: the model's turns, code cells and sub-calls as they happen
// (Verbose, the -v/--verbose output), a live status line of model calls,
// retries, tokens and cost with the final usage line (Status), and errors
// as text with their chain, detail and hint (ErrorText). Model and server
// text is neutralized for the terminal (control sequences shown inert)
// unless a printer is told to print it raw.
//
// Everything here is a view: it observes events and results and decides
// nothing about the run.
package console
