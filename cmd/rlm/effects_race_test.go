//go:build race

package main

// effectsRaceBuild: the race detector is on, so the binary under test is
// built with -race too.
const effectsRaceBuild = true
