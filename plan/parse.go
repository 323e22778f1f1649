package plan

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/jsonstrict"
)

// MaxTextBytes is the longest model text Parse accepts.
const MaxTextBytes = 1 << 20

// maxCandidates bounds the brace-balanced candidates that failed to decode
// which Parse tries before giving up, so that adversarial text (a long run
// of `{"`) costs linear rather than quadratic time.
const maxCandidates = 16

// Parse reads a root model's answer. Leading reasoning blocks
// (<think>...</think>, <reasoning>...</reasoning>) are skipped. The text
// must then hold exactly one JSON object (Markdown fences and prose around
// it are ignored; nothing in it is ever evaluated as code), decoded
// strictly: duplicate keys, excessive
// nesting and malformed JSON fail with the Kinds of internal/jsonstrict
// (Phase parse). No JSON object gives Kind no_json, more than one
// multiple_json, an object that is neither {"answer": V} nor
// {"steps": [...]} not_a_document, text over MaxTextBytes too_large. An
// answer object may carry other keys (kept in Document.Meta, never
// evaluated) except "steps"; a plan object may not.
//
// A plan is decoded into the typed AST. Shape errors that the AST cannot
// represent are reported here with Phase validate, exactly as Validate
// would: unknown_op, unknown_field, unknown_ref, invalid_argument (a field
// of the wrong JSON type, or an explicit concurrency below 1) and
// missing_field (an expression missing a part), each with detail "path".
// Everything else (required step fields, ranges, scoping, capabilities,
// budget) is left to Validate.
func Parse(text string) (*Document, error) {
	if len(text) > MaxTextBytes {
		return nil, parseErr(KindTooLarge, "text is too long").With("max_bytes", MaxTextBytes)
	}
	body, unclosed := skipReasoning(text)
	if unclosed != "" {
		return nil, parseErr(KindNoJSON, "the reply is an unclosed reasoning block with no JSON object after it").With("reasoning", unclosed)
	}
	raw, err := extractObject(body)
	if err != nil {
		return nil, err
	}
	obj, err := jsonstrict.DecodeObject(raw)
	if err != nil {
		return nil, err
	}
	return decodeDocument(obj)
}

// reasoningTags are the reasoning blocks models write before their reply.
var reasoningTags = []string{"think", "thinking", "reasoning"}

// skipReasoning returns text without the reasoning blocks that lead it:
// after optional whitespace, any number of <think>...</think>,
// <thinking>...</thinking> or <reasoning>...</reasoning> blocks (tag names
// in any case). A leading block that never closes makes the whole text
// reasoning: skipReasoning then returns its tag name as unclosed. Some
// servers strip the opening tag: a closing tag with no opening one ends a
// leading reasoning block when the text does not start like JSON or a
// Markdown fence and the tag is not inside a JSON object. Blocks anywhere
// else are left alone, so a JSON string that mentions a tag is never cut.
func skipReasoning(text string) (body, unclosed string) {
	body = text
	for first := true; ; first = false {
		rest := strings.TrimLeft(body, " \t\r\n")
		tag, ok := openingTag(rest)
		if !ok {
			if first {
				if end, ok := orphanClose(rest); ok {
					body = rest[end:]
					continue
				}
			}
			return body, ""
		}
		closing := "</" + tag + ">"
		k := indexFold(rest, closing)
		if k < 0 {
			return "", tag
		}
		body = rest[k+len(closing):]
	}
}

// openingTag reports the reasoning tag that s starts with.
func openingTag(s string) (string, bool) {
	for _, t := range reasoningTags {
		open := "<" + t + ">"
		if len(s) >= len(open) && strings.EqualFold(s[:len(open)], open) {
			return t, true
		}
	}
	return "", false
}

// orphanClose returns the end of the first closing reasoning tag in s when
// s does not start like a JSON object or a fence and holds no opening tag
// before it.
func orphanClose(s string) (int, bool) {
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "`") {
		return 0, false
	}
	best, end := -1, 0
	for _, t := range reasoningTags {
		closing := "</" + t + ">"
		if k := indexFold(s, closing); k >= 0 && (best < 0 || k < best) {
			if indexFold(s[:k], "<"+t+">") >= 0 || insideObject(s, k) {
				continue
			}
			best, end = k, k+len(closing)
		}
	}
	return end, best >= 0
}

// insideObject reports whether offset k of s lies inside a JSON object
// (a bracket-balanced span that is valid JSON) that starts before k, such
// as a reply whose string mentions a closing reasoning tag.
func insideObject(s string, k int) bool {
	failed := 0
	for i := 0; i < k; {
		j := strings.IndexByte(s[i:k], '{')
		if j < 0 {
			return false
		}
		start := i + j
		if looksLikeObject(s, start) {
			end, balanced := matchObject(s, start)
			if balanced && json.Valid([]byte(s[start:end])) {
				if end > k {
					return true
				}
				i = end
				continue
			}
			if failed++; failed >= maxCandidates {
				return false
			}
		}
		i = start + 1
	}
	return false
}

// indexFold is strings.Index of the lower-case ASCII sub in s, ignoring
// the ASCII case of s (byte offsets are those of s).
func indexFold(s, sub string) int {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if len(s)-i >= len(sub) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
		i++
	}
}

// ParsePlan is Parse for text that must hold a plan; an answer document
// fails with Kind not_a_document.
func ParsePlan(text string) (*Plan, error) {
	d, err := Parse(text)
	if err != nil {
		return nil, err
	}
	if d.IsAnswer {
		return nil, parseErr(KindNotADocument, "expected a plan, found an answer")
	}
	return d.Plan, nil
}

// extractObject returns the one JSON object in text.
func extractObject(text string) ([]byte, error) {
	var found []string
	badStart, badEnd := -1, -1
	failed := 0
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		if !looksLikeObject(text, start) {
			i = start + 1
			continue
		}
		end, balanced := matchObject(text, start)
		if balanced && json.Valid([]byte(text[start:end])) {
			found = append(found, text[start:end])
			i = end
			continue
		}
		if badStart < 0 {
			badStart, badEnd = start, end
		}
		failed++
		if failed >= maxCandidates {
			break
		}
		i = start + 1
	}
	switch {
	case len(found) == 1:
		return []byte(found[0]), nil
	case len(found) > 1:
		return nil, parseErr(KindMultipleJSON, "the text holds more than one JSON object").With("count", len(found))
	case badStart >= 0:
		// Something that starts like a JSON object but does not decode:
		// report why, with jsonstrict's kinds.
		if _, err := jsonstrict.Decode([]byte(text[badStart:badEnd])); err != nil {
			return nil, err
		}
		return nil, parseErr(jsonstrict.KindMalformedJSON, "invalid JSON object")
	}
	return nil, parseErr(KindNoJSON, "the text holds no JSON object")
}

// looksLikeObject reports whether text[start] == '{' is followed, after
// optional whitespace, by '"': the start of a non-empty JSON object.
func looksLikeObject(text string, start int) bool {
	for k := start + 1; k < len(text); k++ {
		switch text[k] {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			return true
		}
		return false
	}
	return false
}

// matchObject returns the end (exclusive) of the bracket-balanced span
// starting at text[start] == '{', skipping JSON strings, and whether the
// span closed before the end of text.
func matchObject(text string, start int) (int, bool) {
	depth := 0
	inString := false
	for k := start; k < len(text); k++ {
		c := text[k]
		if inString {
			switch c {
			case '\\':
				k++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return k + 1, true
			}
		}
	}
	return len(text), false
}

func decodeDocument(obj map[string]any) (*Document, error) {
	if v, ok := obj["answer"]; ok {
		// Other keys of an answer object are metadata (models add
		// "confidence", "reasoning", "sources"), except "steps": an object
		// that is both an answer and a plan is ambiguous.
		if _, both := obj["steps"]; both {
			return nil, validateErr(KindUnknownField, "steps", "an answer object cannot also hold steps").With("field", "steps")
		}
		ans, err := normalizeParsed(v, "answer")
		if err != nil {
			return nil, err
		}
		doc := &Document{IsAnswer: true, Answer: ans}
		for _, k := range sortedKeys(obj) {
			if k == "answer" {
				continue
			}
			m, err := normalizeParsed(obj[k], k) // plan text: Phase validate with a path, like the answer
			if err != nil {
				return nil, err
			}
			if doc.Meta == nil {
				doc.Meta = make(map[string]Value, len(obj)-1)
			}
			doc.Meta[k] = m
		}
		return doc, nil
	}
	if _, ok := obj["steps"]; ok {
		p, err := decodePlan(obj, "")
		if err != nil {
			return nil, err
		}
		return &Document{Plan: p}, nil
	}
	return nil, parseErr(KindNotADocument, `the object has neither "answer" nor "steps"`)
}

// join appends a field or index segment to a path.
func join(path, seg string) string {
	if path == "" {
		return seg
	}
	if strings.HasPrefix(seg, "[") {
		return path + seg
	}
	return path + "." + seg
}

func idx(i int) string { return "[" + strconv.Itoa(i) + "]" }

// onlyKeys fails with unknown_field for the first key of obj (in sorted
// order) outside allowed.
func onlyKeys(obj map[string]any, path string, allowed ...string) error {
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(allowed, k) {
			return validateErr(KindUnknownField, join(path, k), "field is not allowed here").With("field", k)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func badArg(path, field, msg string) *fault.Error {
	return validateErr(KindInvalidArgument, path, msg).With("field", field)
}

func decodePlan(v any, path string) (*Plan, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, badArg(path, "plan", `a plan must be an object {"steps":[...]}`)
	}
	if err := onlyKeys(obj, path, "steps"); err != nil {
		return nil, err
	}
	raw, ok := obj["steps"]
	if !ok {
		return nil, validateErr(fault.KindMissingField, join(path, "steps"), "a plan needs steps").With("field", "steps")
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, badArg(join(path, "steps"), "steps", "steps must be a list")
	}
	p := &Plan{Steps: make([]Step, len(list))}
	for i, s := range list {
		if err := decodeStep(s, join(path, "steps"+idx(i)), &p.Steps[i]); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// stepFields lists each op's fields, in canonical order.
var stepFields = map[Op][]string{
	OpContext:    {"op", "handle", "action", "bind"},
	OpModel:      {"op", "prompt", "model", "options", "images", "bind"},
	OpRLM:        {"op", "query", "context", "bind"},
	OpTool:       {"op", "name", "args", "bind"},
	OpMap:        {"op", "over", "as", "concurrency", "fail_fast", "plan", "bind"},
	OpParallel:   {"op", "plans", "bind"},
	OpRetry:      {"op", "attempts", "plan", "bind"},
	OpCheckpoint: {"op", "label"},
	OpFinal:      {"op", "value"},
}

func decodeStep(v any, path string, st *Step) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return badArg(path, "step", "a step must be an object")
	}
	rawOp, ok := obj["op"]
	if !ok {
		return validateErr(fault.KindMissingField, join(path, "op"), "a step needs an op").With("field", "op")
	}
	op, ok := rawOp.(string)
	if !ok {
		return badArg(join(path, "op"), "op", "op must be a string")
	}
	fields, ok := stepFields[Op(op)]
	if !ok {
		return validateErr(KindUnknownOp, join(path, "op"), "op is not in the plan language").With("op", op)
	}
	st.Op = Op(op)
	if err := onlyKeys(obj, path, fields...); err != nil {
		return err
	}
	for _, k := range fields[1:] {
		raw, ok := obj[k]
		if !ok {
			continue
		}
		fp := join(path, k)
		var err error
		switch k {
		case "handle":
			st.Handle, err = decodeExpr(raw, fp)
		case "prompt":
			st.Prompt, err = decodeExpr(raw, fp)
		case "query":
			st.Query, err = decodeExpr(raw, fp)
		case "context":
			st.Context, err = decodeExpr(raw, fp)
		case "args":
			st.Args, err = decodeExpr(raw, fp)
		case "over":
			st.Over, err = decodeExpr(raw, fp)
		case "images":
			st.Images, err = decodeExpr(raw, fp)
		case "value":
			st.Value, err = decodeExpr(raw, fp)
		case "action":
			st.Action, err = decodeAction(raw, fp)
		case "model":
			st.Model, err = decodeString(raw, fp, k)
		case "name":
			st.Name, err = decodeString(raw, fp, k)
		case "as":
			st.As, err = decodeString(raw, fp, k)
		case "label":
			st.Label, err = decodeString(raw, fp, k)
		case "bind":
			st.Bind, err = decodeString(raw, fp, k)
		case "options":
			m, ok := raw.(map[string]any)
			if !ok {
				return badArg(fp, k, "options must be an object")
			}
			var n Value
			n, err = normalizeParsed(m, fp)
			if err == nil {
				st.Options = n.(map[string]any)
			}
		case "concurrency":
			st.Concurrency, err = decodeInt(raw, fp, k)
			if err == nil && st.Concurrency < 1 {
				err = badArg(fp, k, "concurrency must be at least 1")
			}
		case "attempts":
			st.Attempts, err = decodeInt(raw, fp, k)
			if err == nil && st.Attempts < 1 {
				err = badArg(fp, k, "attempts must be at least 1")
			}
		case "fail_fast":
			st.FailFast, err = decodeBool(raw, fp, k)
		case "plan":
			st.Plan, err = decodePlan(raw, fp)
		case "plans":
			list, ok := raw.([]any)
			if !ok {
				return badArg(fp, k, "plans must be a list of plans")
			}
			st.Plans = make([]Plan, len(list))
			for i, e := range list {
				var sub *Plan
				sub, err = decodePlan(e, fp+idx(i))
				if err != nil {
					break
				}
				st.Plans[i] = *sub
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func decodeString(v any, path, field string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", badArg(path, field, field+" must be a string")
	}
	return s, nil
}

func decodeBool(v any, path, field string) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, badArg(path, field, field+" must be true or false")
	}
	return b, nil
}

func decodeInt64(v any, path, field string) (int64, error) {
	if n, ok := v.(json.Number); ok {
		if v, err := numberValue(n); err == nil {
			if i, ok := v.(int64); ok {
				return i, nil
			}
		}
	}
	return 0, badArg(path, field, field+" must be an integer")
}

func decodeInt(v any, path, field string) (int, error) {
	i, err := decodeInt64(v, path, field)
	if err != nil {
		return 0, err
	}
	if i > math.MaxInt32 || i < math.MinInt32 {
		return 0, badArg(path, field, field+" is out of range")
	}
	return int(i), nil
}

// actionFields lists every field an action may have, with its JSON type.
var actionFields = map[string]string{
	"type": "string", "selector": "string", "count": "int", "start": "int", "length": "int",
	"pattern": "string", "regex": "bool", "count_only": "bool", "strategy": "string",
	"size": "int", "with_text": "bool", "with_handles": "bool", "transform": "string",
	"reducer": "string", "dpi": "int",
}

// decodeAction decodes a literal context action. Which fields apply to
// which type is checked by Validate.
func decodeAction(v any, path string) (*corpus.Action, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, badArg(path, "action", "action must be an object")
	}
	a := &corpus.Action{}
	for _, k := range sortedKeys(obj) {
		typ, ok := actionFields[k]
		if !ok {
			return nil, validateErr(KindUnknownField, join(path, k), "field is not allowed in an action").With("field", k)
		}
		fp := join(path, k)
		raw := obj[k]
		var (
			s   string
			i   int64
			b   bool
			err error
		)
		switch typ {
		case "string":
			s, err = decodeString(raw, fp, k)
		case "int":
			i, err = decodeInt64(raw, fp, k)
		case "bool":
			b, err = decodeBool(raw, fp, k)
		}
		if err != nil {
			return nil, err
		}
		switch k {
		case "type":
			a.Type = s
		case "selector":
			a.Selector = s
		case "count":
			a.Count = i
		case "start":
			a.Start = i
		case "length":
			a.Length = i
		case "pattern":
			a.Pattern = s
		case "regex":
			a.Regex = b
		case "count_only":
			a.CountOnly = b
		case "strategy":
			a.Strategy = s
		case "size":
			a.Size = i
		case "with_text":
			a.WithText = b
		case "with_handles":
			a.WithHandles = b
		case "transform":
			a.Transform = s
		case "reducer":
			a.Reducer = s
		case "dpi":
			a.DPI = i
		}
	}
	return a, nil
}

// decodeExpr decodes an expression. An object is an expression shape when
// it has one of the reserved keys "ref", "join", "json", "text" or
// "literal" (the first present, in that order, decides) and then may have
// no other keys than its shape's; any other object is an object
// expression whose values are expressions.
func decodeExpr(v any, path string) (*Expr, error) {
	switch x := v.(type) {
	case nil, bool, string, json.Number:
		n, err := normalizeParsed(x, path)
		if err != nil {
			return nil, err
		}
		return Lit(n), nil
	case []any:
		e := &Expr{Kind: ExprList, Items: make([]*Expr, len(x))}
		for i, it := range x {
			var err error
			if e.Items[i], err = decodeExpr(it, path+idx(i)); err != nil {
				return nil, err
			}
		}
		return e, nil
	case map[string]any:
		return decodeObjectExpr(x, path)
	}
	return nil, badArg(path, "expression", "not a JSON value")
}

func decodeObjectExpr(obj map[string]any, path string) (*Expr, error) {
	shape := ""
	for _, k := range reservedKeys {
		if _, ok := obj[k]; ok {
			shape = k
			break
		}
	}
	switch shape {
	case "":
		e := &Expr{Kind: ExprObject, Fields: make(map[string]*Expr, len(obj))}
		for _, k := range sortedKeys(obj) {
			f, err := decodeExpr(obj[k], join(path, k))
			if err != nil {
				return nil, err
			}
			e.Fields[k] = f
		}
		return e, nil
	case "literal":
		if err := onlyKeys(obj, path, "literal"); err != nil {
			return nil, err
		}
		n, err := normalizeParsed(obj["literal"], join(path, "literal"))
		if err != nil {
			return nil, err
		}
		return Lit(n), nil
	case "join":
		if err := onlyKeys(obj, path, "join"); err != nil {
			return nil, err
		}
		list, ok := obj["join"].([]any)
		if !ok {
			return nil, badArg(join(path, "join"), "join", "join takes a list of expressions")
		}
		e := &Expr{Kind: ExprJoin, Items: make([]*Expr, len(list))}
		for i, it := range list {
			var err error
			if e.Items[i], err = decodeExpr(it, join(path, "join")+idx(i)); err != nil {
				return nil, err
			}
		}
		return e, nil
	case "json", "text":
		if err := onlyKeys(obj, path, shape); err != nil {
			return nil, err
		}
		op, err := decodeExpr(obj[shape], join(path, shape))
		if err != nil {
			return nil, err
		}
		kind := ExprJSON
		if shape == "text" {
			kind = ExprText
		}
		return &Expr{Kind: kind, Operand: op}, nil
	}
	// A reference.
	ref, ok := obj["ref"].(string)
	if !ok {
		return nil, badArg(join(path, "ref"), "ref", "ref must be a string")
	}
	var keys []string
	switch ref {
	case "input", "var":
		keys = []string{"ref", "name"}
	case "field":
		keys = []string{"ref", "value", "key"}
	case "index":
		keys = []string{"ref", "value", "index"}
	default:
		return nil, validateErr(KindUnknownRef, join(path, "ref"), "unknown reference").With("ref", ref)
	}
	if err := onlyKeys(obj, path, keys...); err != nil {
		return nil, err
	}
	for _, k := range keys[1:] {
		if _, ok := obj[k]; !ok {
			return nil, validateErr(fault.KindMissingField, join(path, k), "reference is missing a field").With("field", k)
		}
	}
	switch ref {
	case "input", "var":
		name, err := decodeString(obj["name"], join(path, "name"), "name")
		if err != nil {
			return nil, err
		}
		if ref == "input" {
			return Input(name), nil
		}
		return Var(name), nil
	}
	operand, err := decodeExpr(obj["value"], join(path, "value"))
	if err != nil {
		return nil, err
	}
	if ref == "field" {
		key, err := decodeString(obj["key"], join(path, "key"), "key")
		if err != nil {
			return nil, err
		}
		return Field(operand, key), nil
	}
	i, err := decodeInt64(obj["index"], join(path, "index"), "index")
	if err != nil {
		return nil, err
	}
	return Index(operand, i), nil
}
