package engine

import (
	"fmt"
	"strings"
	"testing"
)

// serviceLog writes a multi-service log of about size bytes in which
// each of a few services logs ERROR lines at its own rate; it returns the
// log and the true ERROR count of each service.
func serviceLog(size int) (string, map[string]int) {
	services := []string{"auth", "billing", "search", "gateway", "mailer"}
	rates := []int{461, 853, 1777, 617, 1103} // one ERROR line in every rate lines
	counts := map[string]int{}
	var b strings.Builder
	b.Grow(size + 200)
	for i := 0; b.Len() < size; i++ {
		svc := services[i%len(services)]
		level := "INFO"
		if (i/len(services))%rates[i%len(services)] == 7 {
			level = "ERROR"
			counts[svc]++
		}
		fmt.Fprintf(&b, "2026-03-%02d %02d:%02d:%02d.%03d %s %-7s request=%08x status=%d ✓ took %dms\n",
			1+i%28, i%24, i%60, (i/7)%60, i%1000, level, svc, i*2654435761%(1<<32), 200+(i%5)*100, i%997)
	}
	return b.String(), counts
}

// The measured case: on a 50 MB log with 859 ERROR lines, a search
// with max_results=1000 returned 729 hits (a 64 KiB bound, nothing said)
// and the model's per-service counts were short. Now the search returns
// whole lines up to max_results, and the counts a scripted model computes
// are exact; a search cut by max_results says so where the model reads it.
func TestCodeSearchCountsEveryErrorOfALargeLog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 50 MB log")
	}
	text, counts := serviceLog(50 << 20)
	total := 0
	var want []string
	for _, svc := range []string{"auth", "billing", "gateway", "mailer", "search"} {
		total += counts[svc]
		want = append(want, fmt.Sprintf("%s=%d", svc, counts[svc]))
	}
	cell := py(
		`hs = context.search(" ERROR ", max_results=1000)`,
		`per = {}`,
		`for h in hs:`,
		`    svc = h["text"].split()[3]`,
		`    per[svc] = per.get(svc, 0) + 1`,
		`few = context.search(" ERROR ", max_results=100)`,
		`print(len(hs), hs.truncated, hs.total, len(few), few.truncated, few.total)`,
		`print(" ".join(f"{k}={v}" for k, v in sorted(per.items())))`,
	)
	obs := fmt.Sprintf("%d False %d 100 True %d\n%s\n", total, total, total, strings.Join(want, " "))
	f := newFixture(t, text, codeCfg(),
		reply("Query: count", cell),
		reply(obs, py(`FINAL(per)`)),
	)
	res, err := f.run(t, "count the errors of each service")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := res.Answer.(map[string]any)
	for svc, n := range counts {
		if fmt.Sprint(got[svc]) != fmt.Sprint(n) {
			t.Fatalf("answer %v, want %v", res.Answer, counts)
		}
	}
	if total < 800 {
		t.Fatalf("the log has only %d ERROR lines", total)
	}
}
