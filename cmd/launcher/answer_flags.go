package launcher

import (
	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/engine"
)

// answerFlags are the flags that type the final answer: --answer-schema
// (rlm run, submit, chat, direct) and, where --max-repairs is not already
// one of verboseFlags (rlm direct), --max-repairs.
type answerFlags struct {
	schemaFile string
	maxRepairs int
	repairs    bool
}

// register adds --answer-schema, and --max-repairs when repairs is true.
func (f *answerFlags) register(cmd *cobra.Command, repairs bool) {
	fl := cmd.Flags()
	fl.StringVar(&f.schemaFile, "answer-schema", "", "JSON Schema (draft 2020-12) FILE the final answer must match; a non-matching answer gets a repair message (--max-repairs), and --json adds answer_json")
	if repairs {
		f.repairs = true
		fl.IntVar(&f.maxRepairs, "max-repairs", engine.DefaultMaxRepairs, "final answers --answer-schema refuses that get a repair message before the run fails (0: none)")
	}
}

// spec sets Spec.AnswerSchemaFile (and MaxRepairs when registered here).
func (f *answerFlags) spec(sp *rlm.Spec) {
	sp.AnswerSchemaFile = f.schemaFile
	if f.repairs {
		sp.MaxRepairs = f.maxRepairs
		if f.maxRepairs <= 0 {
			sp.MaxRepairs = -1
		}
	}
}
