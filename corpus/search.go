package corpus

import (
	"bytes"
	"context"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// SearchOptions selects the search mode.
type SearchOptions struct {
	// Regex makes the pattern an RE2 regular expression (Go regexp syntax)
	// in multi-line mode: ^ and $ match at line boundaries. Otherwise the
	// pattern is a literal, case-sensitive byte string.
	Regex bool
	// CountOnly returns the number of matching lines (an int64, like
	// grep -c) instead of the matches. It is not bounded by MaxResults.
	CountOnly bool
}

// Match is one matching line.
type Match struct {
	// Index is the 1-based line number.
	Index int64 `json:"index"`
	// Offset is the byte offset of the start of the line.
	Offset int64 `json:"offset"`
	// Match is the byte offset of the first match in the line.
	Match int64 `json:"match"`
	// Value is the line without its newline. A line longer than LineCap
	// bytes is cut to an excerpt of at most LineCap bytes containing the
	// start of the match; the last value of a result may also be cut by
	// MaxBytes. Either way Truncated is set.
	Value     string `json:"value"`
	Truncated bool   `json:"truncated,omitempty"`
	// File names the file holding the line, in a composite context (see
	// AddFiles) or a view of one; FileLine is the line's 1-based number
	// within that file, set when searching the composite itself.
	File     string `json:"file,omitempty"`
	FileLine int64  `json:"file_line,omitempty"`
}

// regexWindow is the span a regular expression searches per call, so that
// the context and time limit are checked that often.
const regexWindow = 1 << 20

// Search finds the lines of h matching pattern. Lines are separated by '\n'
// and each matching line is reported once, in order, as a Match; with
// opt.CountOnly the value is the number of matching lines instead. An empty
// pattern, a literal pattern containing '\n', or a regular expression that
// does not compile fails with Kind invalid_pattern.
//
// MaxResults bounds the matches and MaxBytes the total bytes of their
// values; the result is truncated if a further match exists or a value was
// cut. Literal search runs bytes.Index over the whole text and counts
// newlines only between consecutive matches; it never scans line by line.
func (s *Store) Search(ctx context.Context, h Handle, pattern string, opt SearchOptions, lim Limits) (Result, error) {
	var re *regexp.Regexp
	perLine, lit := false, ""
	switch {
	case pattern == "":
		return Result{}, newErr(KindInvalidPattern, "empty pattern")
	case opt.Regex:
		// Validate the pattern alone: wrapping could balance its parentheses.
		if _, err := regexp.Compile(pattern); err != nil {
			return Result{}, newErr(KindInvalidPattern, err.Error()).With("pattern", pattern)
		}
		var err error
		if re, err = regexp.Compile("(?m)" + pattern); err != nil {
			return Result{}, newErr(KindInvalidPattern, err.Error()).With("pattern", pattern)
		}
		perLine, lit = canMatchNewline(pattern), requiredLiteral(pattern)
	case strings.IndexByte(pattern, '\n') >= 0:
		return Result{}, newErr(KindInvalidPattern, "literal pattern contains a newline").With("pattern", pattern)
	}
	return s.run(ctx, h, lim, func(o *op) (Result, error) {
		sr := searcher{op: o, data: o.e.data, count: opt.CountOnly, budget: o.lim.MaxBytes, line: 1}
		if !opt.CountOnly {
			sr.matches = []Match{}
		}
		var err error
		switch {
		case re == nil:
			err = sr.literal([]byte(pattern), nil)
		case lit != "":
			err = sr.literal([]byte(lit), re)
		case perLine:
			err = sr.regexLines(re)
		default:
			err = sr.regex(re)
		}
		if err != nil {
			return Result{}, err
		}
		o.acc.BytesInspected = int64(sr.inspected)
		if opt.CountOnly {
			o.acc.ItemsInspected = sr.n
			return o.result(sr.n, false), nil
		}
		return o.result(sr.matches, sr.truncated), nil
	})
}

// searcher holds the state of one search.
type searcher struct {
	*op
	data      []byte
	count     bool    // count only
	n         int64   // matching lines found
	matches   []Match // when !count
	budget    int     // remaining MaxBytes
	truncated bool
	inspected int   // bytes of data scanned
	line      int64 // line number of the line starting at counted
	counted   int   // offset up to which newlines have been counted
}

// literal searches for pat, which holds no newline. With verify set, pat is
// a literal every match of verify contains (see requiredLiteral): a line
// holding pat matches only if verify matches the line on its own.
func (sr *searcher) literal(pat []byte, verify *regexp.Regexp) error {
	data := sr.data
	n := len(data)
	floor := 0 // a line start at or before pos
	window := max(scanWindow, 4*len(pat))
	for pos := 0; pos < n; {
		if err := sr.progress(pos); err != nil {
			return err
		}
		lim := min(n, pos+window)
		i := bytes.Index(data[pos:lim], pat)
		if i < 0 {
			if lim == n {
				sr.inspected = n
				return nil
			}
			pos = lim - len(pat) + 1
			sr.inspected = pos
			continue
		}
		m := pos + i
		le := n
		if j := bytes.IndexByte(data[m+len(pat):], '\n'); j >= 0 {
			le = m + len(pat) + j
		}
		sr.inspected = le
		if sr.count && verify == nil {
			sr.n++
		} else {
			ls := floor + bytes.LastIndexByte(data[floor:m], '\n') + 1
			if verify != nil {
				loc := verify.FindIndex(data[ls:le])
				if loc == nil {
					pos, floor = le+1, le+1
					continue
				}
				m = ls + loc[0]
			}
			if sr.count {
				sr.n++
			} else if !sr.add(ls, m, le) {
				return nil
			}
		}
		pos = le + 1
		floor = pos
	}
	return nil
}

// requiredLiteral returns the longest case-sensitive literal without a
// newline that every match of the regular expression contains, or "".
func requiredLiteral(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	var walk func(*syntax.Regexp) string
	walk = func(re *syntax.Regexp) string {
		switch re.Op {
		case syntax.OpLiteral:
			if re.Flags&syntax.FoldCase != 0 || slices.Contains(re.Rune, '\n') {
				return ""
			}
			return string(re.Rune)
		case syntax.OpCapture, syntax.OpPlus:
			return walk(re.Sub[0])
		case syntax.OpRepeat:
			if re.Min >= 1 {
				return walk(re.Sub[0])
			}
		case syntax.OpConcat:
			best := ""
			for _, sub := range re.Sub {
				if l := walk(sub); len(l) > len(best) {
					best = l
				}
			}
			return best
		}
		return ""
	}
	return walk(re)
}

// canMatchNewline reports whether the regular expression can consume a
// '\n' (a literal newline, a class such as \s or [^a], or . with the s
// flag). Such a regex is matched line by line: over a window it could run
// on past line ends, making the search quadratic.
func canMatchNewline(pattern string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpAnyChar:
			return true
		case syntax.OpLiteral:
			return slices.Contains(re.Rune, '\n')
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
					return true
				}
			}
			return false
		}
		return slices.ContainsFunc(re.Sub, walk)
	}
	return walk(re)
}

// regexLines matches re against each line on its own.
func (sr *searcher) regexLines(re *regexp.Regexp) error {
	data := sr.data
	n := len(data)
	for pos := 0; pos < n; {
		if err := sr.progress(pos); err != nil {
			return err
		}
		le := n
		if j := bytes.IndexByte(data[pos:], '\n'); j >= 0 {
			le = pos + j
		}
		sr.inspected = le
		if loc := re.FindIndex(data[pos:le]); loc != nil {
			if sr.count {
				sr.n++
			} else if !sr.add(pos, pos+loc[0], le) {
				return nil
			}
		}
		pos = le + 1
	}
	sr.inspected = n
	return nil
}

// regex searches for re, compiled in multi-line mode, over windows of whole
// lines; re cannot match a newline (see canMatchNewline), so every match
// lies within one line. Should a match span a newline all the same, it is
// accepted only if the line holding its start matches on its own.
func (sr *searcher) regex(re *regexp.Regexp) error {
	data := sr.data
	n := len(data)
	for pos := 0; pos < n; { // pos is always a line start
		if err := sr.progress(pos); err != nil {
			return err
		}
		we := min(n, pos+regexWindow)
		if we < n {
			if j := bytes.LastIndexByte(data[pos:we], '\n'); j >= 0 {
				we = pos + j + 1
			} else if j := bytes.IndexByte(data[we:], '\n'); j >= 0 {
				we += j + 1
			} else {
				we = n
			}
		}
		loc := re.FindIndex(data[pos:we])
		if loc == nil || pos+loc[0] == we && we < n {
			sr.inspected = we
			pos = we
			continue
		}
		m, e := pos+loc[0], pos+loc[1]
		if m == n && data[n-1] == '\n' { // empty match after the final newline: no line there
			break
		}
		ls := pos + bytes.LastIndexByte(data[pos:m], '\n') + 1
		le := n
		if j := bytes.IndexByte(data[m:], '\n'); j >= 0 {
			le = m + j
		}
		sr.inspected = max(sr.inspected, le)
		if e > le {
			loc := re.FindIndex(data[ls:le])
			if loc == nil {
				pos = le + 1
				continue
			}
			m = ls + loc[0]
		}
		if sr.count {
			sr.n++
		} else if !sr.add(ls, m, le) {
			return nil
		}
		pos = le + 1
	}
	sr.inspected = n
	return nil
}

// add records the line [ls, le) whose first match is at m and reports
// whether the search should go on.
func (sr *searcher) add(ls, m, le int) bool {
	sr.acc.ItemsInspected++
	if len(sr.matches) == sr.lim.MaxResults || sr.budget == 0 {
		sr.truncated = true
		return false
	}
	sr.line += int64(bytes.Count(sr.data[sr.counted:ls], nl))
	sr.counted = ls
	vs, ve := ls, le
	if le-ls > LineCap {
		if m+1-ls > LineCap/2 {
			vs = snapBack(sr.data, m-LineCap/4)
		}
		ve = snapBack(sr.data, min(le, vs+LineCap))
	}
	mt := Match{Index: sr.line, Offset: int64(ls), Match: int64(m), Truncated: vs > ls || ve < le}
	if f := fileAt(sr.e.files, sr.e.base+int64(ls)); f != nil {
		mt.File = f.Name
		if sr.e.kind == TextKindFiles {
			mt.FileLine = sr.line - f.Line + 1
		}
	}
	text := sr.data[vs:ve]
	if len(text) > sr.budget {
		text = cutText(text, sr.budget)
		mt.Truncated = true
		sr.truncated = true
	}
	sr.budget -= len(text)
	sr.acc.BytesReturned += int64(len(text))
	mt.Value = string(text)
	sr.matches = append(sr.matches, mt)
	return !sr.truncated
}
