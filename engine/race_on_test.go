//go:build race

package engine

// raceOn: the race detector slows the 1,000-call re-split test tenfold.
const raceOn = true
