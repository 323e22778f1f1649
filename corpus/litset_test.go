package corpus

import (
	"reflect"
	"testing"
)

func TestRequiredLitSet(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string // nil: no set
		fold    bool
	}{
		{`(model|window) [a-z]+e `, []string{"model ", "window "}, false},
		{`(?i)(MODEL|WINDOW) [a-z]+E `, []string{"model ", "window "}, true},
		{`(alpha|omega) [a-z]+a `, []string{"alpha ", "omega "}, false},
		{`zyzzyva`, []string{"zyzzyva"}, false},
		{`colou?r`, []string{"color", "colour"}, false},
		{`[ab]c`, []string{"ac", "bc"}, false},
		// Ignoring case, a rune's fold orbit: é, É; k, U+212A KELVIN SIGN; s, U+017F LONG S.
		{`(?i)(MODEL|é)`, []string{"model", "É", "é"}, true},
		{`(?i)(task|model)`, []string{"model", "task", "tas\u212a", "ta\u017fk", "ta\u017f\u212a"}, true},
		{`(?i)x(task|model)y`, []string{"xmodely", "xtasky", "xtas\u212ay", "xta\u017fky", "xta\u017f\u212ay"}, true},
		{`(?i)kelvin`, []string{"kelvin", "\u212aelvin"}, true},
		{`(?i)(kiss|x)`, nil, false}, // 2 x 2 x 2 x 2 variants: more than maxLitSet
		{`(café|model)`, []string{"café", "model"}, false},
		{`(?i:ab)(café|x)`, []string{"ab"}, true}, // café cannot be folded ASCII-wise
		{`^(error|warn)\b`, []string{"error", "warn"}, false},
		{`a*`, nil, false},
		{`(x|y*)z?`, nil, false},
		{`[a-z]+`, nil, false},
		{`a\nb|c`, nil, false},
		{`(a|b|c|d|e|f|g|h|i)`, nil, false},   // more than maxLitSet
		{`(ab|cd)+ef`, []string{"ef"}, false}, // one literal beats two as long
		{`x(ab|cd){2}`, []string{"ab", "cd"}, false},
	} {
		s, ok := requiredLitSet(tc.pattern)
		if tc.want == nil {
			if ok {
				t.Errorf("%q: set %+v, want none", tc.pattern, s)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(s.lits, tc.want) || s.fold != tc.fold {
			t.Errorf("%q: set %+v, %v; want %q fold %v", tc.pattern, s, ok, tc.want, tc.fold)
		}
	}
}

func TestPrefixLitSet(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string // nil: no set
	}{
		{`(model|window) [a-z]+e `, []string{"model ", "window "}},
		{`(?i)(MODEL|WINDOW) [a-z]+E `, []string{"model ", "window "}},
		{`models?`, []string{"model", "models"}},
		{`(mode|model)x`, []string{"modelx", "modex"}},
		{`[ab]+c`, []string{"a", "b"}},
		{`model\b`, []string{"model"}},
		{`\bmodel`, nil}, // an assertion before the literal looks at the text before it
		{`^model`, nil},
		{`(model|^x)`, nil},
		{`(model|)x`, nil},
		{`x?model`, nil},
		{`[a-z]+model`, nil},
	} {
		s, ok := prefixLitSet(tc.pattern)
		if tc.want == nil {
			if ok {
				t.Errorf("%q: set %+v, want none", tc.pattern, s)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(s.lits, tc.want) || !s.prefix {
			t.Errorf("%q: set %+v, %v; want %q", tc.pattern, s, ok, tc.want)
		}
	}
}
