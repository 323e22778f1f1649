package engine

import "testing"

// Code the model commented out does not run: a FINAL inside an HTML
// comment, or inside a fence quoting Markdown, never finishes the run.
// Before, `<!-- ```python FINAL(...) ``` -->` ran and ended the run with
// the commented-out answer.
func TestCodeCommentedOutFenceDoesNotRun(t *testing.T) {
	for name, reply0 := range map[string]string{
		"html comment":    "Old attempt:\n<!--\n" + py(`FINAL("commented out")`) + "\n-->\n" + py(`x = 1`, `print("ran", x)`),
		"quoted markdown": "The format is:\n````\n" + py(`FINAL("quoted")`) + "\n````\n" + py(`x = 1`, `print("ran", x)`),
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, haystack, codeCfg(),
				reply("Query: q", reply0),
				reply("ran 1", py(`FINAL("real")`)),
			)
			res, err := f.run(t, "q")
			if err != nil || res.Answer != "real" || res.Turns != 2 {
				t.Fatalf("%v: answer %v after %d turns", err, res.Answer, res.Turns)
			}
		})
	}
}
