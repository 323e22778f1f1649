//go:build race

package main

// raceEnabled: the race detector is on, so the binary under test is
// built with -race too.
const raceEnabled = true
