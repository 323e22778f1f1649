// Command importonly imports lib, and so every module package, without
// calling lib.Register: TestImportLinksNoModule checks that its binary
// links none of the modules' code.
package main

import (
	"fmt"

	_ "github.com/rlm-go/rlm/repl/internal/python/lib"
)

func main() { fmt.Println("nothing registered") }
