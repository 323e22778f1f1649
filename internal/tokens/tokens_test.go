package tokens

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestForModel runs without package bpe: every known family maps to its
// encoding, and with no encoding registered every count is the estimate.
// bpe's tests check the same families with the encodings linked.
func TestForModel(t *testing.T) {
	tests := []struct{ model, encoding string }{
		{"gpt-4o-mini", O200kBase},
		{"openai/GPT-5", O200kBase},
		{"o3-mini", O200kBase},
		{"gpt-4-turbo", Cl100kBase},
		{"gpt-3.5-turbo", Cl100kBase},
		{"cl100k_base", Cl100kBase},
		{"o200k_base", O200kBase},
		{"claude-sonnet", Estimate},
		{"", Estimate},
	}
	for _, tt := range tests {
		if got := EncodingFor(tt.model); got != tt.encoding {
			t.Errorf("EncodingFor(%q) = %s, want %s", tt.model, got, tt.encoding)
		}
		if c := ForModel(tt.model); c.Method() != MethodEstimated || c.Encoding() != Estimate {
			t.Errorf("ForModel(%q) without encodings = %s/%s, want the estimate", tt.model, c.Method(), c.Encoding())
		}
	}
}

// fixed is an exact counter for TestRegister.
type fixed struct{ name string }

func (f fixed) Count(string) int { return 7 }
func (f fixed) Method() string   { return MethodExact }
func (f fixed) Encoding() string { return f.name }

func TestRegister(t *testing.T) {
	t.Cleanup(func() { encodings.Delete(Cl100kBase) })
	Register(fixed{Cl100kBase})
	if c := ForModel("gpt-4-turbo"); c.Method() != MethodExact || c.Count("x") != 7 {
		t.Errorf("ForModel(gpt-4-turbo) after Register = %s, %d", c.Method(), c.Count("x"))
	}
	if c := ForModel("gpt-4o"); c.Method() != MethodEstimated {
		t.Errorf("ForModel(gpt-4o) = %s, want the estimate: o200k_base is not registered", c.Method())
	}
}

func TestEstimate(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{" ", 1},
		{"abc", 1},
		{"abcd", 2},
		{"1234", 2},
		{"a b", 2},
		{"1 2", 3},
		{"𓀀", 4},
		{"aB", 2},
		{"{}", 2},
		{"é", 2},
	}
	for _, tt := range tests {
		if got := (Estimator{}).Count(tt.text); got != tt.want {
			t.Errorf("Estimator.Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
