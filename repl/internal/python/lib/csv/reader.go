package csv

import (
	"fmt"
	"io"
)

type parserState int

const (
	startRecord parserState = iota
	startField
	escapedChar
	inField
	inQuotedField
	escapeInQuotedField
	quoteInQuotedField
	eatCRNL
	afterEscapedCRNL
)

// eol stands for the end of each line the reader is given.
const eol rune = -2

// Reader is csv.reader's state: it parses lines into rows, one line at a
// time, and counts the lines it has read.
type Reader struct {
	d Dialect
	// FieldLimit is csv.field_size_limit() when the reader runs (the module
	// value; the wrapper sets it before each row).
	FieldLimit int
	lineNum    int
	state      parserState
	fields     []any
	field      []rune
	numeric    bool
}

// NewReader returns a reader for the dialect d (already validated).
func NewReader(d Dialect) *Reader {
	return &Reader{d: d, FieldLimit: DefaultFieldLimit}
}

// Dialect returns the reader's dialect.
func (r *Reader) Dialect() Dialect { return r.d }

// LineNum is the reader's line_num: the number of lines read.
func (r *Reader) LineNum() int { return r.lineNum }

// LineSource gives the reader its next line: ok is false at the end of the
// input; a non-nil err (the iterator's exception, or the wrapper's
// "iterator should return strings, not bytes (the file should be opened in
// text mode)" Error) stops the row.
type LineSource func() (line string, ok bool, err error)

// Next returns the next row, reading as many lines as it spans. Fields are
// strings, and float64 for the unquoted fields of QUOTE_NONNUMERIC. At the
// end of the input it returns io.EOF.
func (r *Reader) Next(next LineSource) ([]any, error) {
	r.fields = nil
	r.field = r.field[:0]
	r.state = startRecord
	r.numeric = false
	for {
		line, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			if len(r.field) != 0 || r.state == inQuotedField {
				if r.d.Strict {
					return nil, errorf(CSVError, "unexpected end of data")
				}
				if err := r.saveField(); err != nil {
					return nil, err
				}
				break
			}
			return nil, io.EOF
		}
		r.lineNum++
		for _, c := range line {
			if err := r.processChar(c); err != nil {
				return nil, err
			}
		}
		if err := r.processChar(eol); err != nil {
			return nil, err
		}
		if r.state == startRecord {
			break
		}
	}
	fields := r.fields
	r.fields = nil
	if fields == nil {
		fields = []any{}
	}
	return fields, nil
}

func (r *Reader) saveField() error {
	s := string(r.field)
	r.field = r.field[:0]
	if r.numeric {
		r.numeric = false
		f, err := ParseFloat(s)
		if err != nil {
			return err
		}
		r.fields = append(r.fields, f)
		return nil
	}
	r.fields = append(r.fields, s)
	return nil
}

func (r *Reader) addChar(c rune) error {
	if len(r.field) >= r.FieldLimit {
		return errorf(CSVError, "field larger than field limit (%d)", r.FieldLimit)
	}
	r.field = append(r.field, c)
	return nil
}

func (r *Reader) endOfLine(c rune) error {
	if err := r.saveField(); err != nil {
		return err
	}
	if c == eol {
		r.state = startRecord
	} else {
		r.state = eatCRNL
	}
	return nil
}

func (r *Reader) processChar(c rune) error {
	d := &r.d
	quoteOn := d.QuoteChar != NoChar && d.Quoting != QuoteNone
	switch r.state {
	case startRecord:
		if c == eol {
			return nil
		}
		if c == '\n' || c == '\r' {
			r.state = eatCRNL
			return nil
		}
		r.state = startField
		return r.startField(c)
	case startField:
		return r.startField(c)
	case escapedChar:
		if c == '\n' || c == '\r' {
			if err := r.addChar(c); err != nil {
				return err
			}
			r.state = afterEscapedCRNL
			return nil
		}
		if c == eol {
			c = '\n'
		}
		if err := r.addChar(c); err != nil {
			return err
		}
		r.state = inField
	case afterEscapedCRNL:
		if c == eol {
			return nil
		}
		return r.inField(c)
	case inField:
		return r.inField(c)
	case inQuotedField:
		switch {
		case c == eol:
		case c == d.EscapeChar && d.EscapeChar != NoChar:
			r.state = escapeInQuotedField
		case c == d.QuoteChar && quoteOn:
			if d.DoubleQuote {
				r.state = quoteInQuotedField
			} else {
				r.state = inField
			}
		default:
			return r.addChar(c)
		}
	case escapeInQuotedField:
		if c == eol {
			c = '\n'
		}
		if err := r.addChar(c); err != nil {
			return err
		}
		r.state = inQuotedField
	case quoteInQuotedField:
		switch {
		case quoteOn && c == d.QuoteChar:
			if err := r.addChar(c); err != nil {
				return err
			}
			r.state = inQuotedField
		case c == d.Delimiter:
			if err := r.saveField(); err != nil {
				return err
			}
			r.state = startField
		case c == '\n' || c == '\r' || c == eol:
			return r.endOfLine(c)
		case !d.Strict:
			if err := r.addChar(c); err != nil {
				return err
			}
			r.state = inField
		default:
			return errorf(CSVError, "'%c' expected after '%c'", d.Delimiter, d.QuoteChar)
		}
	case eatCRNL:
		switch {
		case c == '\n' || c == '\r':
		case c == eol:
			r.state = startRecord
		default:
			return errorf(CSVError, "new-line character seen in unquoted field - do you need to open the file in universal-newline mode?")
		}
	default:
		panic(fmt.Sprintf("csv: bad state %d", r.state))
	}
	return nil
}

func (r *Reader) startField(c rune) error {
	d := &r.d
	switch {
	case c == '\n' || c == '\r' || c == eol:
		return r.endOfLine(c)
	case c == d.QuoteChar && d.QuoteChar != NoChar && d.Quoting != QuoteNone:
		r.state = inQuotedField
	case c == d.EscapeChar && d.EscapeChar != NoChar:
		r.state = escapedChar
	case c == ' ' && d.SkipInitialSpace:
	case c == d.Delimiter:
		return r.saveField()
	default:
		if d.Quoting == QuoteNonnumeric {
			r.numeric = true
		}
		if err := r.addChar(c); err != nil {
			return err
		}
		r.state = inField
	}
	return nil
}

func (r *Reader) inField(c rune) error {
	d := &r.d
	switch {
	case c == '\n' || c == '\r' || c == eol:
		return r.endOfLine(c)
	case c == d.EscapeChar && d.EscapeChar != NoChar:
		r.state = escapedChar
	case c == d.Delimiter:
		if err := r.saveField(); err != nil {
			return err
		}
		r.state = startField
	default:
		// The state stays as it is (afterEscapedCRNL too, as in CPython).
		return r.addChar(c)
	}
	return nil
}
