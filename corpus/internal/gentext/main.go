// Command gentext writes the deterministic benchmark text of package
// textgen: gentext SIZE_MIB FILE.
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/rlm-go/rlm/corpus/internal/textgen"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gentext SIZE_MIB FILE")
		os.Exit(2)
	}
	mib, err := strconv.ParseInt(os.Args[1], 10, 64)
	if err != nil || mib <= 0 {
		fmt.Fprintln(os.Stderr, "gentext: bad size")
		os.Exit(2)
	}
	f, err := os.Create(os.Args[2])
	if err == nil {
		err = textgen.Generate(f, mib<<20, 1)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentext:", err)
		os.Exit(1)
	}
}
