package python

import "github.com/rlm-go/rlm/repl/internal/python/syntax"

// Frame is one activation of a function, class body or cell.
type Frame struct {
	t       *Thread
	code    *Code
	fast    []Object
	cells   []*Cell
	globals *Dict
	locals  *Dict // class bodies; nil elsewhere
	ret     Object
	line    int
	gen     *genCore
	fn      *Function
	back    *Frame
	snap    *Dict        // a function's locals() dict, refreshed by each call
	obj     *FrameObject // the frame as Python code sees it, once asked
	inlined bool         // a list, set or dict comprehension's frame: part of back's
}

// Cell holds a variable shared between a function and the functions nested
// in it.
type Cell struct{ v Object }

// Type returns the cell type.
func (*Cell) Type() *Type { return CellType }

// Line returns the line the frame is running.
func (f *Frame) Line() int { return f.line }

// Code is a compiled function, lambda, comprehension, class body or cell.
type Code struct {
	// Warnings are the SyntaxWarnings of compiling the code (a module's).
	Warnings []syntax.Warning
	Name     string
	Qualname string
	File     string // "<cell N>" or the function's defining cell
	Line     int

	// Parameters.
	PosOnly    int
	ArgNames   []string // positional (incl. positional-only) parameter names
	KwOnly     []string
	Vararg     string
	Kwarg      string
	paramSlots []varRef // where each parameter is stored: args, vararg, kwonly, kwarg

	nfast  int
	ncells int // cell variables created by this frame

	body        execFn
	generator   bool
	classCell   int // index of the __class__ cell in a class body, or -1
	fastNames   []string
	cellNames   []string
	isClassBody bool
}

// varRef says where a name lives.
type varRef struct {
	kind  varKind
	index int
	name  string
}

type varKind uint8

const (
	varFast varKind = iota
	varCell
	varGlobal
	varName
	varClassDeref
)
