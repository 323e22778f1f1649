package jsonschema

import (
	"testing"
)

// A tool's argument schema and a valid call, as the direct loop's
// context_search sees them.
const (
	benchSchema = `{"type":"object","properties":{"pattern":{"type":"string","minLength":1,"description":"the text to find"},` +
		`"regex":{"type":"boolean"},"limit":{"type":"integer","minimum":1,"maximum":1000},"files":{"type":"array","items":{"type":"string"},"uniqueItems":true}},` +
		`"required":["pattern"],"additionalProperties":false}`
	benchArgs = `{"pattern":"timeout after [0-9]+ ms","regex":true,"limit":50,"files":["a.log","b.log"]}`
)

// go test -run '^$' -bench . -benchmem ./tool/internal/jsonschema
func BenchmarkValidate(b *testing.B) {
	v := decode(b, benchArgs)
	b.Run("ours", func(b *testing.B) {
		s, err := Compile([]byte(benchSchema), testBase)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if s.Validate(v) != nil {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("santhosh", func(b *testing.B) {
		s, err := refCompile(benchSchema)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if s.Validate(v) != nil {
				b.Fatal("invalid")
			}
		}
	})
}

func BenchmarkCompile(b *testing.B) {
	b.Run("ours", func(b *testing.B) {
		for b.Loop() {
			if _, err := Compile([]byte(benchSchema), testBase); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("santhosh", func(b *testing.B) {
		for b.Loop() {
			if _, err := refCompile(benchSchema); err != nil {
				b.Fatal(err)
			}
		}
	})
}
