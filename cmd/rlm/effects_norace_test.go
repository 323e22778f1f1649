//go:build !race

package main

const effectsRaceBuild = false
