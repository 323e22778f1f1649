package jsonschema

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/internal/jsonstrict"
)

// Leaf is one failing leaf of a verdict: the instance location (its
// tokens, unescaped; none for the whole value), the keyword that failed
// ("" for a false schema) and a sentence about it. Missing lists the
// properties a failing "required" lacks; Unexpected the properties an
// "additionalProperties": false refuses.
type Leaf struct {
	Location   []string
	Keyword    string
	Message    string
	Missing    []string
	Unexpected []string
}

// Pointer is the leaf's location as a JSON pointer (RFC 6901).
func (l Leaf) Pointer() string {
	var b strings.Builder
	for _, t := range l.Location {
		b.WriteString("/" + jsonstrict.EscapeToken(t))
	}
	return b.String()
}

// Validate checks a decoded JSON value (objects map[string]any, arrays
// []any, numbers json.Number or any Go number type) and returns the
// failing leaves in evaluation order; nil when the value is valid.
func (s *Schema) Validate(v any) []Leaf {
	st := state{track: s.track}
	return st.eval(s.root, v, false, nil)
}

// Valid reports whether v is valid, without building leaves.
func (s *Schema) Valid(v any) bool {
	st := state{track: s.track}
	return st.eval(s.root, v, true, nil) == nil
}

type state struct {
	track bool
	path  []string
}

// evald is what has been evaluated of one value by a schema and the
// subschemas applied to it in place: properties by name, items below
// upTo or in items.
type evald struct {
	allProps bool
	props    map[string]bool
	upTo     int
	items    map[int]bool
}

func (e *evald) prop(name string) {
	if e.props == nil {
		e.props = map[string]bool{}
	}
	e.props[name] = true
}

func (e *evald) item(i int) {
	if e.items == nil {
		e.items = map[int]bool{}
	}
	e.items[i] = true
}

func (e *evald) merge(o *evald) {
	e.allProps = e.allProps || o.allProps
	for k := range o.props {
		e.prop(k)
	}
	e.upTo = max(e.upTo, o.upTo)
	for i := range o.items {
		e.item(i)
	}
}

// failed stands for the leaves of a quick evaluation, which stops at the
// first failure.
var failed = []Leaf{{Keyword: "?"}}

func (st *state) leaf(kw, msg string) []Leaf {
	return []Leaf{{Location: slices.Clone(st.path), Keyword: kw, Message: msg}}
}

// child evaluates a child value (an item or a property) of the current
// one.
func (st *state) child(n *node, v any, tok string, quick bool) []Leaf {
	st.path = append(st.path, tok)
	errs := st.eval(n, v, quick, nil)
	st.path = st.path[:len(st.path)-1]
	return errs
}

// inplace applies a subschema to the current value, keeping what it
// evaluated when it succeeds.
func (st *state) inplace(n *node, v any, quick bool, ev *evald) []Leaf {
	if ev == nil {
		return st.eval(n, v, quick, nil)
	}
	sub := &evald{}
	errs := st.eval(n, v, quick, sub)
	if errs == nil {
		ev.merge(sub)
	}
	return errs
}

func (st *state) eval(n *node, v any, quick bool, ev *evald) []Leaf {
	if n.always != nil {
		if *n.always {
			return nil
		}
		if quick {
			return failed
		}
		return st.leaf("", "false schema")
	}
	t := typeOf(v)
	if t == tInvalid {
		if quick {
			return failed
		}
		return st.leaf("", fmt.Sprintf("invalid JSON value of Go type %T", v))
	}
	if n.hasTypes && n.types&t == 0 && (n.types&tInteger == 0 || t != tNumber || !isInteger(v)) {
		if quick {
			return failed
		}
		return st.leaf("type", fmt.Sprintf("got %s, want %s", t, strings.Join(n.typeList, " or ")))
	}
	if n.hasConst && !equal(v, n.constV) {
		if quick {
			return failed
		}
		return st.leaf("const", constMessage(n.constV))
	}
	if n.hasEnum && !slices.ContainsFunc(n.enum, func(e any) bool { return equal(v, e) }) {
		if quick {
			return failed
		}
		return st.leaf("enum", enumMessage(n.enum))
	}
	if n.format != nil {
		if s, ok := v.(string); ok && !n.format(s) {
			if quick {
				return failed
			}
			return st.leaf("format", fmt.Sprintf("%s is not valid %s", quote(s), quote(n.formatName)))
		}
	}
	if ev == nil && st.track && (n.unevalProps != nil || n.unevalItems != nil) {
		ev = &evald{}
	}
	var errs []Leaf
	add := func(more []Leaf) bool {
		if more == nil {
			return false
		}
		if quick {
			errs = failed
			return true
		}
		errs = append(errs, more...)
		return false
	}
	if n.ref != nil && add(st.inplace(n.ref, v, quick, ev)) {
		return errs
	}
	var stop bool
	switch v := v.(type) {
	case map[string]any:
		stop = st.object(n, v, quick, ev, add)
	case []any:
		stop = st.array(n, v, quick, ev, add)
	case string:
		stop = st.str(n, v, add)
	case bool, nil:
	default:
		stop = st.num(n, v, add)
	}
	if stop {
		return errs
	}
	if st.cond(n, v, quick, ev, add) {
		return errs
	}
	if n.unevalProps != nil {
		if obj, ok := v.(map[string]any); ok {
			if !ev.allProps {
				for _, k := range slices.Sorted(maps.Keys(obj)) {
					if !ev.props[k] && add(st.child(n.unevalProps, obj[k], k, quick)) {
						return errs
					}
				}
			}
			ev.allProps = true
		}
	}
	if n.unevalItems != nil {
		if arr, ok := v.([]any); ok {
			for i := ev.upTo; i < len(arr); i++ {
				if !ev.items[i] && add(st.child(n.unevalItems, arr[i], strconv.Itoa(i), quick)) {
					return errs
				}
			}
			ev.upTo = len(arr)
		}
	}
	return errs
}

func (st *state) object(n *node, obj map[string]any, quick bool, ev *evald, add func([]Leaf) bool) bool {
	if n.minProps >= 0 && len(obj) < n.minProps && add(st.leaf("minProperties", fmt.Sprintf("minProperties: got %d, want %d", len(obj), n.minProps))) {
		return true
	}
	if n.maxProps >= 0 && len(obj) > n.maxProps && add(st.leaf("maxProperties", fmt.Sprintf("maxProperties: got %d, want %d", len(obj), n.maxProps))) {
		return true
	}
	if missing := lacking(obj, n.required); missing != nil {
		l := st.leaf("required", "")
		l[0].Missing = missing
		if len(missing) == 1 {
			l[0].Message = "missing property " + quote(missing[0])
		} else {
			l[0].Message = "missing properties " + joinQuoted(missing)
		}
		if add(l) {
			return true
		}
	}
	for _, d := range n.dependencies {
		if _, ok := obj[d.name]; !ok {
			continue
		}
		if d.schema != nil {
			if add(st.inplace(d.schema, obj, quick, ev)) {
				return true
			}
		} else if missing := lacking(obj, d.required); missing != nil {
			if add(st.leaf("dependencies", fmt.Sprintf("properties %s required, if %s exists", joinQuoted(missing), quote(d.name)))) {
				return true
			}
		}
	}
	var names []string
	if len(obj) > 0 && (n.props != nil || n.patterns != nil || n.additional != nil || n.noAdditional || n.propertyNames != nil) {
		names = slices.Sorted(maps.Keys(obj))
	}
	var extra []string
	if n.props != nil || n.patterns != nil || n.additional != nil || n.noAdditional {
		for _, k := range names {
			val := obj[k]
			evaluated := false
			if s, ok := n.props[k]; ok {
				evaluated = true
				if add(st.child(s, val, k, quick)) {
					return true
				}
			}
			for _, p := range n.patterns {
				if p.re.MatchString(k) {
					evaluated = true
					if add(st.child(p.s, val, k, quick)) {
						return true
					}
				}
			}
			if !evaluated {
				if n.noAdditional {
					evaluated = true
					extra = append(extra, k)
					if quick {
						return add(failed)
					}
				} else if n.additional != nil {
					evaluated = true
					if add(st.child(n.additional, val, k, quick)) {
						return true
					}
				}
			}
			if evaluated && ev != nil {
				ev.prop(k)
			}
		}
	}
	if extra != nil {
		l := st.leaf("additionalProperties", "additional properties "+joinQuoted(extra)+" not allowed")
		l[0].Unexpected = extra
		add(l)
	}
	if n.propertyNames != nil {
		for _, k := range names {
			errs := st.eval(n.propertyNames, k, quick, nil)
			if errs == nil {
				continue
			}
			if !quick {
				// The name is not a value of the instance: its leaves are
				// reported at the object.
				for i := range errs {
					errs[i].Location = slices.Clone(st.path)
					errs[i].Message = "invalid propertyName " + quote(k) + ": " + errs[i].Message
				}
			}
			if add(errs) {
				return true
			}
		}
	}
	for _, d := range n.dependentSchemas {
		if _, ok := obj[d.name]; ok && add(st.inplace(d.schema, obj, quick, ev)) {
			return true
		}
	}
	for _, d := range n.dependentRequired {
		if _, ok := obj[d.name]; !ok {
			continue
		}
		if missing := lacking(obj, d.required); missing != nil {
			if add(st.leaf("dependentRequired", fmt.Sprintf("properties %s required, if %s exists", joinQuoted(missing), quote(d.name)))) {
				return true
			}
		}
	}
	return false
}

func lacking(obj map[string]any, names []string) []string {
	var missing []string
	for _, k := range names {
		if _, ok := obj[k]; !ok {
			missing = append(missing, k)
		}
	}
	return missing
}

func (st *state) array(n *node, arr []any, quick bool, ev *evald, add func([]Leaf) bool) bool {
	if n.minItems >= 0 && len(arr) < n.minItems && add(st.leaf("minItems", fmt.Sprintf("minItems: got %d, want %d", len(arr), n.minItems))) {
		return true
	}
	if n.maxItems >= 0 && len(arr) > n.maxItems && add(st.leaf("maxItems", fmt.Sprintf("maxItems: got %d, want %d", len(arr), n.maxItems))) {
		return true
	}
	if n.unique && len(arr) > 1 {
		if i, j := duplicate(arr); i >= 0 && add(st.leaf("uniqueItems", fmt.Sprintf("items at %d and %d are equal", i, j))) {
			return true
		}
	}
	pre := min(len(n.prefix), len(arr))
	for i := range pre {
		if add(st.child(n.prefix[i], arr[i], strconv.Itoa(i), quick)) {
			return true
		}
	}
	if ev != nil {
		ev.upTo = max(ev.upTo, pre)
	}
	if n.noAdditionalItems && len(arr) > pre && add(st.leaf("additionalItems", fmt.Sprintf("got %d items, want at most %d", len(arr), len(n.prefix)))) {
		return true
	}
	if n.items != nil {
		for i := pre; i < len(arr); i++ {
			if add(st.child(n.items, arr[i], strconv.Itoa(i), quick)) {
				return true
			}
		}
		if ev != nil {
			ev.upTo = len(arr)
		}
	}
	if n.contains == nil {
		return false
	}
	matched := 0
	var misses []int
	for i, e := range arr {
		if st.child(n.contains, e, strconv.Itoa(i), true) == nil {
			matched++
			if ev != nil && n.containsEvaluates {
				ev.item(i)
			}
		} else {
			misses = append(misses, i)
		}
	}
	// The leaves of a failing contains are those of the items that did not
	// match, or the keyword itself when every item matched.
	fail := func(kw, msg string) bool {
		if quick {
			return add(failed)
		}
		if len(misses) == 0 {
			return add(st.leaf(kw, msg))
		}
		var errs []Leaf
		for _, i := range misses {
			errs = append(errs, st.child(n.contains, arr[i], strconv.Itoa(i), false)...)
		}
		return add(errs)
	}
	if n.minContains >= 0 {
		if matched < n.minContains && fail("minContains", fmt.Sprintf("min %d items required to match contains schema, but matched %d", n.minContains, matched)) {
			return true
		}
	} else if matched == 0 && fail("contains", "no items match contains schema") {
		return true
	}
	if n.maxContains >= 0 && matched > n.maxContains {
		return add(st.leaf("maxContains", fmt.Sprintf("max %d items required to match contains schema, but matched %d", n.maxContains, matched)))
	}
	return false
}

func (st *state) str(n *node, s string, add func([]Leaf) bool) bool {
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLen >= 0 && l < n.minLen && add(st.leaf("minLength", fmt.Sprintf("minLength: got %d, want %d", l, n.minLen))) {
			return true
		}
		if n.maxLen >= 0 && l > n.maxLen && add(st.leaf("maxLength", fmt.Sprintf("maxLength: got %d, want %d", l, n.maxLen))) {
			return true
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		return add(st.leaf("pattern", fmt.Sprintf("%s does not match pattern %s", quote(s), quote(n.pattern.String()))))
	}
	return false
}

func (st *state) num(n *node, v any, add func([]Leaf) bool) bool {
	if n.minimum == nil && n.maximum == nil && n.exMin == nil && n.exMax == nil && n.multipleOf == nil {
		return false
	}
	var r *big.Rat // computed when a comparison needs it
	exact := func() *big.Rat {
		if r == nil {
			r, _ = number(v)
		}
		return r
	}
	check := func(bound *big.Rat, fails func(c int) bool, kw string) bool {
		if bound == nil || !fails(cmpBound(v, &r, bound)) {
			return false
		}
		return add(st.leaf(kw, fmt.Sprintf("%s: got %s, want %s", kw, ratString(exact()), ratString(bound))))
	}
	if check(n.minimum, func(c int) bool { return c < 0 }, "minimum") ||
		check(n.maximum, func(c int) bool { return c > 0 }, "maximum") ||
		check(n.exMin, func(c int) bool { return c <= 0 }, "exclusiveMinimum") ||
		check(n.exMax, func(c int) bool { return c >= 0 }, "exclusiveMaximum") {
		return true
	}
	if n.multipleOf != nil {
		x, small := smallInt(v)
		var ok bool
		if m := n.multipleOf; small && m.IsInt() && m.Num().IsInt64() {
			ok = x%m.Num().Int64() == 0
		} else {
			ok = new(big.Rat).Quo(exact(), m).IsInt()
		}
		if !ok {
			return add(st.leaf("multipleOf", fmt.Sprintf("multipleOf: got %s, want %s", ratString(exact()), ratString(n.multipleOf))))
		}
	}
	return false
}

// cond applies not, allOf, anyOf, oneOf and if/then/else.
func (st *state) cond(n *node, v any, quick bool, ev *evald, add func([]Leaf) bool) bool {
	if n.not != nil && st.inplace(n.not, v, true, ev) == nil && add(st.leaf("not", "'not' failed")) {
		return true
	}
	for _, s := range n.allOf {
		if add(st.inplace(s, v, quick, ev)) {
			return true
		}
	}
	if len(n.anyOf) > 0 {
		matched := false
		for _, s := range n.anyOf {
			if st.inplace(s, v, true, ev) == nil {
				matched = true
				if ev == nil {
					break // every branch is applied only to collect what it evaluates
				}
			}
		}
		if !matched {
			if quick {
				return add(failed)
			}
			var errs []Leaf
			for _, s := range n.anyOf {
				errs = append(errs, st.eval(s, v, false, nil)...)
			}
			if add(errs) {
				return true
			}
		}
	}
	if len(n.oneOf) > 0 {
		first := -1
		for i, s := range n.oneOf {
			if st.inplace(s, v, true, ev) != nil {
				continue
			}
			if first < 0 {
				first = i
				continue
			}
			if add(st.leaf("oneOf", fmt.Sprintf("'oneOf' failed, subschemas %d, %d matched", first, i))) {
				return true
			}
			break
		}
		if first < 0 {
			if quick {
				return add(failed)
			}
			var errs []Leaf
			for _, s := range n.oneOf {
				errs = append(errs, st.eval(s, v, false, nil)...)
			}
			if add(errs) {
				return true
			}
		}
	}
	if n.ifS != nil {
		if st.inplace(n.ifS, v, true, ev) == nil {
			if n.then != nil && add(st.inplace(n.then, v, quick, ev)) {
				return true
			}
		} else if n.els != nil && add(st.inplace(n.els, v, quick, ev)) {
			return true
		}
	}
	return false
}

func isInteger(v any) bool {
	if _, ok := smallInt(v); ok {
		return true
	}
	if f, ok := v.(float64); ok {
		return f == math.Trunc(f) && !math.IsInf(f, 0)
	}
	r, ok := number(v)
	return ok && r.IsInt()
}

// cmpBound compares v with a bound: the int64 path when both are small
// integers, else exact rationals.
func cmpBound(v any, r **big.Rat, bound *big.Rat) int {
	if x, ok := smallInt(v); ok && bound.IsInt() && bound.Num().IsInt64() {
		return cmp.Compare(x, bound.Num().Int64())
	}
	if *r == nil {
		*r, _ = number(v)
	}
	return (*r).Cmp(bound)
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// quote single-quotes s as Go would double-quote it.
func quote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, `'`, `\'`) + "'"
}

func joinQuoted(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}

func display(v any) string {
	switch v := v.(type) {
	case string:
		return quote(v)
	case nil:
		return "null"
	case []any, map[string]any:
		return "value"
	default:
		return fmt.Sprint(v)
	}
}

func constMessage(want any) string {
	switch want.(type) {
	case []any, map[string]any:
		return "'const' failed"
	}
	return "value must be " + display(want)
}

func enumMessage(want []any) string {
	var ws []string
	for _, w := range want {
		switch w.(type) {
		case []any, map[string]any:
			return "'enum' failed"
		}
		ws = append(ws, display(w))
	}
	if len(ws) == 1 {
		return "value must be " + ws[0]
	}
	return "value must be one of " + strings.Join(ws, ", ")
}
