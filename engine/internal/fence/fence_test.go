package fence

import (
	"slices"
	"strings"
	"testing"
)

func TestBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"python", "text\n```python\nx = 1\n```\nmore", []string{"x = 1\n"}},
		{"labels", "```py\na\n```\n```repl\nb\n```\n```\nc\n```\n```Python3\nd\n```", []string{"a\n", "b\n", "c\n", "d\n"}},
		{"prose fences", "```json\n{}\n```\n```text\nhi\n```\n```output\n42\n```", nil},
		{"invented output", "```python\nprint(n)\n```\nOutput:\n```\n7\n```\n**Result:**\n```\n8\n```", []string{"print(n)\n"}},
		{"unclosed", "```python\nx = 1\ny = 2", []string{"x = 1\ny = 2"}},
		{"think skipped", "<think>```python\nbad()\n```</think>```python\ngood()\n```", []string{"good()\n"}},
		{"think tags in code", "<think>x</think>\n```python\ns = \"<think>\"\nt = \"</think>\"\n```\n<think>\n```python\nbad()\n```", []string{"s = \"<think>\"\nt = \"</think>\"\n"}},
		{"tilde and longer fence", "~~~python\na\n~~~\n````python\ns = \"\"\"\n```\n\"\"\"\n````", []string{"a\n", "s = \"\"\"\n```\n\"\"\"\n"}},
		{"indented too far", "    ```python\n    x\n    ```", nil},
		{"empty block", "```python\n\n```", nil},
		{"inline backticks", "use ```python x``` inline", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Blocks(tc.in)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzBlocks(f *testing.F) {
	for _, s := range []string{"```python\nx\n```", "a\n```\nb", "<think>```py\n```</think>", "Output:\n```\n1\n```", "~~~\n~~~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		blocks, prose := Blocks(s)
		total := 0
		for _, b := range blocks {
			if strings.TrimSpace(b) == "" {
				t.Fatal("empty block returned")
			}
			total += len(b)
		}
		if prose < 0 || total+prose > len(s) {
			t.Fatalf("blocks %d + prose %d bytes exceed the input %d", total, prose, len(s))
		}
	})
}

// A reasoning tag that prose mentions inside an inline code span (`<think>`)
// is text, not the start of a reasoning block: the code after it runs.
func TestBlocksTagInInlineCode(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"unclosed mention", "I'll count the `<think>` tags.\n```python\nprint(context.count('<think>'))\n```", []string{"print(context.count('<think>'))\n"}},
		{"double backticks", "Tags like ``<reasoning>`` matter.\n```python\nx = 1\n```", []string{"x = 1\n"}},
		{"after a closed span", "`a` and `<thinking>` here\n```python\ny = 2\n```", []string{"y = 2\n"}},
		{"real block after a mention", "the `<think>` tag\n<think>\n```python\nbad()\n```\n</think>\n```python\ngood()\n```", []string{"good()\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Blocks(tc.in)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
