package fence

import (
	"slices"
	"strings"
	"testing"
)

// Code a reader of the rendered reply would not see as code does not run:
// fences inside HTML comments (the model commented them out) and fences
// that quote Markdown. Before, `<!-- ```python ... ``` -->` ran and could
// finish the run.
func TestBlocksHiddenRegions(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"comment hides a fence", "<!--\n```python\nFINAL('bad')\n```\n-->\n```python\ngood()\n```", []string{"good()\n"}},
		{"comment on the fence lines", "<!-- ```python\nFINAL('bad')\n``` -->\n```python\ngood()\n```", []string{"good()\n"}},
		{"indented comment", "   <!--\n```python\nbad()\n```\n   -->\n```python\ngood()\n```", []string{"good()\n"}},
		{"unclosed comment runs to the end", "```python\na()\n```\n<!--\n```python\nbad()\n```", []string{"a()\n"}},
		{"comment opened mid-line", "Not this one <!-- old try:\n```python\nbad()\n```\n-->, this one:\n```python\ngood()\n```", []string{"good()\n"}},
		{"comment inside a code fence is code", "```python\ns = '<!--'\n```\n```python\nt = '-->'\n```", []string{"s = '<!--'\n", "t = '-->'\n"}},
		{"comment opener in inline code", "I'll count the `<!--` markers.\n```python\nprint(context.count('<!--'))\n```", []string{"print(context.count('<!--'))\n"}},
		{"empty comment", "<!--> x\n```python\nok()\n```", []string{"ok()\n"}},
		{"empty comment with a dash", "<!---> x\n```python\nok()\n```", []string{"ok()\n"}},
		{"closed mid-text", "a <!-- x --> b\n```python\nok()\n```", []string{"ok()\n"}},
		{"rest of an HTML block's line", "<!-- note -->```python\nbad()\n```", nil},
		{"ends at the first closer", "<!--\n```python\ns = '-->'\nbad()\n```\n", nil},
		{"comment then think", "<!-- <think> -->\n```python\nok()\n```", []string{"ok()\n"}},
		{"think then comment", "<think><!--</think>\n```python\nok()\n```", []string{"ok()\n"}},
		{"comment only", "<!--", nil},
		{"quoted markdown in a longer fence", "````\n```python\nbad()\n```\n````\n```python\ngood()\n```", []string{"good()\n"}},
		{"quoted markdown in a labelled fence", "````markdown\n```python\nbad()\n```\n````", nil},
		{"quoted markdown in a python fence", "````python\n\n```python\nbad()\n```\n````", nil},
		{"quoted labelled fence in a 3-backtick fence", "```\n```python\nbad()\n```", nil},
		{"quoted in a tilde fence", "~~~\n```python\nbad()\n```\n~~~", nil},
		{"blockquote fence", "> ```python\n> bad()\n> ```", nil},
		{"backticks later in a block are code", "````python\ns = \"\"\"\n```\n\"\"\"\n````", []string{"s = \"\"\"\n```\n\"\"\"\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Blocks(tc.in)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// Whatever follows an unclosed comment is hidden, and a comment closed on
// its own line changes nothing.
func FuzzBlocksHidden(f *testing.F) {
	for _, s := range []string{"```python\nx\n```", "\n```py\nFINAL(1)\n```", "<think>", ">", "->", "```\n-->\n```python\ny\n```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.Contains("--"+s, "-->") {
			if got, _ := Blocks("<!--" + s); len(got) != 0 {
				t.Fatalf("code after an unclosed comment ran: %q", got)
			}
		}
		want, _ := Blocks(s)
		if got, _ := Blocks("<!-- c -->\n" + s); !slices.Equal(got, want) {
			t.Fatalf("a closed comment line changed the blocks: %q, want %q", got, want)
		}
	})
}

// Stripping hidden regions is linear in the reply: a 1 MiB reply of
// 65 536 empty reasoning blocks took 91 s when each removal copied the
// rest of the text, and takes 10-15 ms.
func BenchmarkBlocksManyRegions(b *testing.B) {
	for _, unit := range []string{"<think></think>", "a<!---->", "<!--\n-->\n"} {
		reply := strings.Repeat(unit, (1<<20)/len(unit))
		b.Run(strings.NewReplacer("\n", `\n`).Replace(unit), func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			for b.Loop() {
				Blocks(reply)
			}
		})
	}
}
