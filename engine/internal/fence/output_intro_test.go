package fence

import (
	"slices"
	"testing"
)

// docs/engine.md: only "an unlabelled fence introduced by a line like
// `Output:` or `Result:`" is the model's guess of output. Prose that
// merely mentions a result or output before its code is not such an
// introduction: the code must run.
func TestCodeAfterProseMentioningResult(t *testing.T) {
	for _, intro := range []string{
		"Let me compute the final result:",
		"Next, I'll search the output logs for errors:",
	} {
		in := intro + "\n```\nprint(context.count(\"ERROR\"))\n```"
		got, _ := Blocks(in)
		if want := []string{"print(context.count(\"ERROR\"))\n"}; !slices.Equal(got, want) {
			t.Errorf("%q: blocks %q, want %q", intro, got, want)
		}
	}
}
