package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
)

// TestSystemPromptListsFiles: a composite context's files are listed,
// quoted and bounded; a single text lists none.
func TestSystemPromptListsFiles(t *testing.T) {
	caps := capability.Set{}
	if p := systemPrompt(0, caps, nil, corpus.Metadata{Bytes: 3, Lines: 1, Kind: corpus.TextKindFile}, "", ""); strings.Contains(p, "Files (") {
		t.Fatalf("single file lists files:\n%s", p)
	}
	var files []corpus.FileInfo
	for i := range promptFiles + 5 {
		files = append(files, corpus.FileInfo{Name: "src/f" + strconv.Itoa(i) + ".go", Offset: int64(i * 10), Bytes: 10, Line: int64(i + 1)})
	}
	files[1].Name = "odd\nname.go"
	meta := corpus.Metadata{Bytes: 2050, Lines: 205, Kind: corpus.TextKindFiles, Files: files}
	p := systemPrompt(0, caps, nil, meta, "", "")
	for _, want := range []string{
		"The context is 205 files", `"file"`, `"file_line"`,
		"\n0: \"src/f0.go\", 10 bytes, line 1",
		"\n1: \"odd\\nname.go\", 10 bytes, line 2",
		"\n199: \"src/f199.go\"", "... and 5 more files",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Contains(p, "src/f200.go") {
		t.Error("prompt lists more than promptFiles files")
	}
}
