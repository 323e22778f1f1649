// Command rlm is the command-line interface of the rlm runtime. Its
// commands, flags and output are package launcher's (docs/cli.md); a Go
// program that wants the same command line with tools of its own calls
// launcher.Main with them.
package main

import (
	"os"

	"github.com/rlm-go/rlm/cmd/launcher"
)

func main() { os.Exit(launcher.Main(launcher.Config{})) }
