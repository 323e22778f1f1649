// Package decimal refuses Python's decimal module in code mode: importing
// it raises NotImplementedError with a hint to use float, round() or
// fractions.Fraction.
package decimal

import "github.com/rlm-go/rlm/repl/internal/python"

// Hint is what the refusal suggests instead.
const Hint = "use float with round() for approximate decimal arithmetic, or fractions.Fraction for exact arithmetic (Fraction('1.10') + Fraction('2.20') == Fraction('3.3'))"

// Register makes `import decimal` an explicit refusal.
func Register() {
	python.Setup()
	python.RefuseModule("decimal", Hint)
}
