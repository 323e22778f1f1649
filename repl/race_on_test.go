//go:build race

package repl

// raceEnabled: the race detector slows the interpreter several times.
const raceEnabled = true
