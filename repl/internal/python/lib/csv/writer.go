package csv

import (
	"strings"
)

// FieldKind tells the writer what kind of Python object a field is, which
// decides its quoting.
type FieldKind int

// The kinds of fields.
const (
	KindString FieldKind = iota // a str
	KindNone                    // None, written as an empty field
	KindNumber                  // an object for which PyNumber_Check holds (int, float, bool, ...)
	KindOther                   // anything else, written as its str()
)

// Field is one field of a row to write: its kind and, but for None, its
// text (the str itself, or str() of the object).
type Field struct {
	Text string
	Kind FieldKind
}

// Writer is csv.writer's formatting of rows.
type Writer struct {
	d Dialect
}

// NewWriter returns a writer for the dialect d (already validated).
func NewWriter(d Dialect) *Writer { return &Writer{d: d} }

// Dialect returns the writer's dialect.
func (w *Writer) Dialect() Dialect { return w.d }

// Row returns the text writerow writes for fields, line terminator
// included. (writerow returns what the file's write returns for it.)
func (w *Writer) Row(fields []Field) (string, error) {
	d := &w.d
	var b strings.Builder
	n := 0
	for _, f := range fields {
		var quoted bool
		switch d.Quoting {
		case QuoteNonnumeric:
			quoted = f.Kind != KindNumber
		case QuoteAll:
			quoted = true
		case QuoteStrings:
			quoted = f.Kind == KindString
		case QuoteNotnull:
			quoted = f.Kind != KindNone
		}
		text := f.Text
		if f.Kind == KindNone {
			text = ""
		}
		if err := w.appendField(&b, n > 0, text, quoted); err != nil {
			return "", err
		}
		n++
	}
	if n == 1 && b.Len() == 0 {
		// A single empty field must be quoted to be read back.
		if d.Quoting == QuoteNone || d.QuoteChar == NoChar {
			return "", errorf(CSVError, "single empty field record must be quoted")
		}
		b.WriteRune(d.QuoteChar)
		b.WriteRune(d.QuoteChar)
	}
	b.WriteString(d.LineTerminator)
	return b.String(), nil
}

func (w *Writer) appendField(b *strings.Builder, sep bool, text string, quoted bool) error {
	d := &w.d
	var body strings.Builder
	for _, c := range text {
		special := c == d.Delimiter ||
			c == d.EscapeChar && d.EscapeChar != NoChar ||
			c == d.QuoteChar && d.QuoteChar != NoChar ||
			strings.ContainsRune(d.LineTerminator, c)
		if special {
			wantEscape := false
			if d.Quoting == QuoteNone || d.QuoteChar == NoChar {
				wantEscape = true
			} else {
				if c == d.QuoteChar {
					if d.DoubleQuote {
						body.WriteRune(d.QuoteChar)
					} else {
						wantEscape = true
					}
				} else if c == d.EscapeChar {
					wantEscape = true
				}
				if !wantEscape {
					quoted = true
				}
			}
			if wantEscape {
				if d.EscapeChar == NoChar {
					return errorf(CSVError, "need to escape, but no escapechar set")
				}
				body.WriteRune(d.EscapeChar)
			}
		}
		body.WriteRune(c)
	}
	if sep {
		b.WriteRune(d.Delimiter)
	}
	if quoted {
		b.WriteRune(d.QuoteChar)
	}
	b.WriteString(body.String())
	if quoted {
		b.WriteRune(d.QuoteChar)
	}
	return nil
}
