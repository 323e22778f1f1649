//go:build race

package launcher

// raceEnabled: the race detector is on, so the binary under test is
// built with -race too.
const raceEnabled = true
