package csv

import (
	"errors"
	"io"
	"strings"
)

// Pair is one key and value of a row DictReader makes, in insertion order.
type Pair struct {
	Key, Value any
}

// DictReader is csv.DictReader's logic over a Reader. Keys and the
// restkey/restval values are the wrapper's objects; when Fieldnames holds
// equal keys, the wrapper's dict keeps the last value at the first key's
// place, as Python's dict does.
type DictReader struct {
	R *Reader
	// Fieldnames is the fieldnames list once known (given, or read from the
	// first row); HaveFieldnames is false while it is None.
	Fieldnames     []any
	HaveFieldnames bool
	RestKey        any
	RestVal        any
	// LineNum is the DictReader's line_num attribute.
	LineNum int
}

// GetFieldnames is the fieldnames property: while unknown, it reads the
// first row of the input (an empty input leaves it None: ok is false).
func (d *DictReader) GetFieldnames(next LineSource) (names []any, ok bool, err error) {
	if !d.HaveFieldnames {
		row, err := d.R.Next(next)
		switch {
		case err == nil:
			d.Fieldnames, d.HaveFieldnames = row, true
		case !errors.Is(err, io.EOF):
			return nil, false, err
		}
		d.LineNum = d.R.LineNum()
	}
	return d.Fieldnames, d.HaveFieldnames, nil
}

// Next returns the next row as key/value pairs, skipping blank rows. The
// rest of a long row goes under RestKey as a []any; missing fields get
// RestVal. It returns io.EOF at the end. With fieldnames still None at
// that point, CPython fails on zip(None, row): TypeError "'NoneType'
// object is not iterable".
func (d *DictReader) Next(next LineSource) ([]Pair, error) {
	if d.LineNum == 0 {
		if _, _, err := d.GetFieldnames(next); err != nil {
			return nil, err
		}
	}
	row, err := d.R.Next(next)
	if err != nil {
		return nil, err
	}
	d.LineNum = d.R.LineNum()
	for len(row) == 0 {
		if row, err = d.R.Next(next); err != nil {
			return nil, err
		}
	}
	// zip(self.fieldnames, row) goes through the property, which sets
	// line_num again, after the blank rows.
	d.LineNum = d.R.LineNum()
	if !d.HaveFieldnames {
		return nil, errorf(TypeError, "'NoneType' object is not iterable")
	}
	lf, lr := len(d.Fieldnames), len(row)
	pairs := make([]Pair, 0, max(lf, lr)+1)
	for i := 0; i < lf && i < lr; i++ {
		pairs = append(pairs, Pair{d.Fieldnames[i], row[i]})
	}
	if lf < lr {
		pairs = append(pairs, Pair{d.RestKey, row[lf:]})
	} else {
		for _, k := range d.Fieldnames[lr:] {
			pairs = append(pairs, Pair{k, d.RestVal})
		}
	}
	return pairs, nil
}

// ExtrasAction checks DictWriter's extrasaction argument: it returns true
// for "raise" and false for "ignore" (in any case).
func ExtrasAction(s string) (raise bool, err error) {
	switch strings.ToLower(s) {
	case "raise":
		return true, nil
	case "ignore":
		return false, nil
	}
	return false, errorf(ValueError, "extrasaction (%s) must be 'raise' or 'ignore'", strings.ToLower(s))
}

// DictRow is DictWriter._dict_to_list: the values of the row dict for each
// fieldname (restval when missing). With raise set, keys of the dict not in
// fieldnames are a ValueError listing their reprs (CPython lists them in
// set order, which for str keys varies from run to run; here they come in
// the dict's order). Keys compare with ==: the wrapper passes comparable
// stand-ins for its objects.
func DictRow(fieldnames []any, keys []any, lookup func(key any) (any, bool), restval any, raise bool, repr func(any) string) ([]any, error) {
	if raise {
		known := make(map[any]bool, len(fieldnames))
		for _, f := range fieldnames {
			known[f] = true
		}
		var wrong []string
		seen := map[any]bool{}
		for _, k := range keys {
			if !known[k] && !seen[k] {
				seen[k] = true
				wrong = append(wrong, repr(k))
			}
		}
		if len(wrong) > 0 {
			return nil, errorf(ValueError, "dict contains fields not in fieldnames: %s", strings.Join(wrong, ", "))
		}
	}
	row := make([]any, len(fieldnames))
	for i, f := range fieldnames {
		if v, ok := lookup(f); ok {
			row[i] = v
		} else {
			row[i] = restval
		}
	}
	return row, nil
}

// Header is DictWriter.writeheader's row: dict(zip(fieldnames,
// fieldnames)) looked up for each fieldname, which is the fieldnames list
// itself, repeated names included.
func Header(fieldnames []any) []any {
	return append([]any(nil), fieldnames...)
}
