// Command rssprobe measures memory use of a count search: it registers FILE
// in a corpus.Store (memory-mapped), counts the lines matching PATTERN, and
// prints the count, the elapsed time and the VmHWM, VmRSS, RssAnon and
// RssFile lines of /proc/self/status (Linux only).
//
//	rssprobe FILE PATTERN
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/rlm-go/rlm/corpus"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: rssprobe FILE PATTERN")
		os.Exit(2)
	}
	ctx := context.Background()
	s := corpus.NewStore()
	h, err := s.AddFile(ctx, os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r, err := s.Search(ctx, h, os.Args[2], corpus.SearchOptions{CountOnly: true}, corpus.Limits{TimeLimit: corpus.MaxTimeLimit})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("count=%v elapsed=%v bytes=%d\n", r.Value, r.Accounting.Elapsed, r.Accounting.BytesInspected)
	f, err := os.Open("/proc/self/status")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		for _, k := range []string{"VmHWM:", "VmRSS:", "RssAnon:", "RssFile:"} {
			if strings.HasPrefix(sc.Text(), k) {
				fmt.Println(strings.Join(strings.Fields(sc.Text()), " "))
			}
		}
	}
	s.Close()
}
