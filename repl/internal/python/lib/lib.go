// Package lib registers code mode's standard modules with the
// interpreter. Each module lives in a package of its own under lib; this
// package only wires them.
package lib

// Register makes every standard module importable.
func Register() {
	for _, m := range modules {
		m()
	}
}

var modules []func()
