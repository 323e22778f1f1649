package openai

// decode.go: DecodeCompletion's fast path, a decoder written by hand for
// the shapes servers send, without reflection. It gives exactly the value
// encoding/json gives or reports that it did not handle the input, and
// then encoding/json decodes it (decodeCompletionJSON), so the value and
// the error of DecodeCompletion are encoding/json's for every input.
//
// It handles an input only when its meaning is plain to it:
//   - keys without escapes and in ASCII, matched exactly by their json
//     tag; a key that matches a field only without regard to case
//     (encoding/json accepts it) is left to encoding/json, and so is any
//     key with an escape or a byte past ASCII, which could spell a field;
//   - every field at most once per object (encoding/json merges a
//     repeated object into the first and reuses a repeated slice's
//     elements);
//   - a number into an integer field only as an integer of at most 18
//     digits (encoding/json refuses a fraction or an exponent there), and
//     into usage.cost as strconv.ParseFloat reads it;
//   - strings with any escape JSON has, and invalid UTF-8 or an unpaired
//     UTF-16 surrogate read as U+FFFD, as encoding/json does;
//   - null for a field as encoding/json reads it: no change for strings,
//     numbers and structs, nil for pointers and slices, Content{Null:
//     true} for content (Content.UnmarshalJSON);
//   - content as a string, null or an array of parts, with the result
//     Content.UnmarshalJSON gives;
//   - a value under an unknown key of any JSON, at most maxSkipDepth
//     deep, checked as strictly as encoding/json's scanner checks it;
//   - one object, with only white space after it, and at least one choice.
//
// Anything else (a type encoding/json refuses, a syntax error, "no
// choices", data after the object) is left to encoding/json, which gives
// the error it always gave.

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxSkipDepth bounds the nesting of a value the fast path reads (well
// below encoding/json's own bound of 10,000).
const maxSkipDepth = 512

// decodeCompletionFast decodes b when its meaning is plain to the fast
// path (see the top of this file), reporting false otherwise.
func decodeCompletionFast(b []byte) (*ChatCompletion, bool) {
	c, _, ok := decodeCompletionFastKeys(b)
	return c, ok
}

// decodeCompletionFastKeys is decodeCompletionFast, also reporting
// whether the object has a key "error" in some ASCII case.
func decodeCompletionFastKeys(b []byte) (c *ChatCompletion, errorKey, ok bool) {
	d := fastDec{b: b}
	d.ws()
	c = new(ChatCompletion)
	if d.peek() != '{' || !d.completion(c) {
		return nil, false, false
	}
	d.ws()
	if d.i != len(d.b) || len(c.Choices) == 0 {
		return nil, false, false
	}
	return c, d.errorKey, true
}

// decodeBody reads a 2xx body as the provider does: an error body when
// ParseErrorBody reads one (apiError), otherwise DecodeCompletion's
// completion or error. A completion the fast path reads is not decoded a
// second time as a possible error body when ParseErrorBody cannot read
// it as one: when it has no key "error" in any case (its keys are ASCII
// without escapes, so no other key matches "error" for encoding/json)
// and its "object" (whose key it matched exactly) is not "error".
// mayHoldError alone lets through every body whose text mentions an
// error in some case, or holds a \u escape.
func decodeBody(raw []byte) (c *ChatCompletion, apiError bool, err error) {
	c, errorKey, ok := decodeCompletionFastKeys(raw)
	if ok && !errorKey && c.Object != "error" {
		return c, false, nil
	}
	if _, isErr := ParseErrorBody(raw); isErr {
		return nil, true, nil
	}
	if ok {
		return c, false, nil
	}
	c, err = decodeCompletionJSON(raw)
	return c, false, err
}

// fastDec reads b from offset i; errorKey is set when the completion
// object has a key "error" in some ASCII case.
type fastDec struct {
	b        []byte
	i        int
	errorKey bool
}

// The json names of each decoded type's fields, for the check that a key
// does not match one of them without regard to case.
var (
	completionNames = []string{"id", "object", "created", "model", "choices", "usage", "system_fingerprint"}
	choiceNames     = []string{"index", "message", "finish_reason"}
	messageNames    = []string{"role", "content", "name", "reasoning", "reasoning_content", "refusal", "tool_calls", "tool_call_id", "function_call"}
	toolCallNames   = []string{"id", "type", "function"}
	functionNames   = []string{"name", "arguments"}
	usageNames      = []string{"prompt_tokens", "completion_tokens", "total_tokens", "cost", "cost_in_usd_ticks", "prompt_tokens_details", "prompt_cache_hit_tokens"}
	detailsNames    = []string{"cached_tokens", "cache_write_tokens"}
	partNames       = []string{"type", "text", "thinking", "image_url"}
	imageURLNames   = []string{"url", "detail"}
)

func (d *fastDec) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// ws skips JSON white space.
func (d *fastDec) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// lit reads the literal s (true, false, null).
func (d *fastDec) lit(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

// null reads a null if one is next, reporting whether it did; ok is
// false when the input starts like null and is not.
func (d *fastDec) null() (isNull, ok bool) {
	if d.peek() != 'n' {
		return false, true
	}
	return true, d.lit("null")
}

// object reads an object, calling field with each key and d.i at the
// key's value; field reads the value and reports false to give up.
func (d *fastDec) object(field func(key []byte) bool) bool {
	if d.peek() != '{' {
		return false
	}
	d.i++
	d.ws()
	if d.peek() == '}' {
		d.i++
		return true
	}
	for {
		d.ws()
		key, ok := d.key()
		if !ok {
			return false
		}
		d.ws()
		if d.peek() != ':' {
			return false
		}
		d.i++
		d.ws()
		if !field(key) {
			return false
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return true
		default:
			return false
		}
	}
}

// array reads an array, calling elem with d.i at each element; elem
// reads it and reports false to give up.
func (d *fastDec) array(elem func() bool) bool {
	if d.peek() != '[' {
		return false
	}
	d.i++
	d.ws()
	if d.peek() == ']' {
		d.i++
		return true
	}
	for {
		d.ws()
		if !elem() {
			return false
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return true
		default:
			return false
		}
	}
}

// key reads an object key that is plain ASCII without escapes, the only
// keys the fast path matches.
func (d *fastDec) key() ([]byte, bool) {
	if d.peek() != '"' {
		return nil, false
	}
	start := d.i + 1
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			return d.b[start:j], true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

// unknown handles a key that names none of the fields in names: a key
// that matches one without regard to case is left to encoding/json, which
// would decode it into that field; any other's value is skipped.
func (d *fastDec) unknown(key []byte, names []string) bool {
	for _, n := range names {
		if equalFoldASCII(key, n) {
			return false
		}
	}
	return d.skip(0)
}

// equalFoldASCII reports whether a and b are equal with ASCII letters
// compared without regard to case (a is ASCII; so are the names).
func equalFoldASCII(a []byte, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// once records field bit in seen, reporting false when the field was
// already read (a repeated key is left to encoding/json).
func once(seen *uint16, bit uint16) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// scanString reads a string's syntax, d.i at its opening quote, and
// returns its text between the quotes, whether it has escapes and whether
// it has bytes past ASCII. It fails on what encoding/json's scanner
// refuses: a control character, an unknown escape, a short \u escape, no
// closing quote.
func (d *fastDec) scanString() (raw []byte, esc, high, ok bool) {
	if d.peek() != '"' {
		return nil, false, false, false
	}
	start := d.i + 1
	for j := start; j < len(d.b); {
		c := d.b[j]
		switch {
		case c == '"':
			d.i = j + 1
			return d.b[start:j], esc, high, true
		case c == '\\':
			esc = true
			if j+1 >= len(d.b) {
				return nil, false, false, false
			}
			switch d.b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(d.b) || hex4(d.b[j+2:j+6]) < 0 {
					return nil, false, false, false
				}
				j += 6
			default:
				return nil, false, false, false
			}
		case c < 0x20:
			return nil, false, false, false
		default:
			if c >= utf8.RuneSelf {
				high = true
			}
			j++
		}
	}
	return nil, false, false, false
}

// hex4 reads four hexadecimal digits, or returns -1.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// str reads a string field: a string, or null (no change, "").
func (d *fastDec) str() (string, bool) {
	if d.peek() == 'n' {
		return "", d.lit("null")
	}
	raw, esc, high, ok := d.scanString()
	if !ok {
		return "", false
	}
	if !esc && (!high || utf8.Valid(raw)) {
		return intern(raw), true
	}
	return string(unescape(raw)), true
}

// intern returns the values most responses repeat without allocating.
func intern(b []byte) string {
	switch string(b) {
	case "":
		return ""
	case "assistant":
		return "assistant"
	case "chat.completion":
		return "chat.completion"
	case "stop":
		return "stop"
	case "length":
		return "length"
	case "tool_calls":
		return "tool_calls"
	case "function":
		return "function"
	case "text":
		return "text"
	}
	return string(b)
}

// unescape decodes the text of a string whose syntax scanString checked,
// as encoding/json does: escapes decoded, a \u escape of a UTF-16
// surrogate combined with a \u escape of its pair that follows it,
// otherwise U+FFFD (the escape after it then read on its own), and each
// byte that does not begin valid UTF-8 replaced by U+FFFD.
func unescape(raw []byte) []byte {
	out := make([]byte, 0, len(raw)+8)
	for i := 0; i < len(raw); {
		// A run of plain ASCII is copied at once.
		j := i
		for j < len(raw) && raw[j] != '\\' && raw[j] < utf8.RuneSelf {
			j++
		}
		out = append(out, raw[i:j]...)
		if i = j; i == len(raw) {
			break
		}
		c := raw[i]
		switch {
		case c == '\\':
			switch raw[i+1] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(raw[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if pair := utf16.DecodeRune(r, hex4(raw[i+2:i+6])); pair != utf8.RuneError {
							out = utf8.AppendRune(out, pair)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default: // '"', '\\', '/'
				out = append(out, raw[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && n == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, raw[i:i+n]...)
			}
			i += n
		}
	}
	return out
}

// number reads a number's syntax and returns its text and whether it is
// an integer (no fraction, no exponent).
func (d *fastDec) number() (text []byte, isInt, ok bool) {
	b, j := d.b, d.i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && '1' <= b[j] && b[j] <= '9':
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
	default:
		return nil, false, false
	}
	isInt = true
	if j < len(b) && b[j] == '.' {
		isInt = false
		j++
		k := j
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		if j == k {
			return nil, false, false
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		isInt = false
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := j
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		if j == k {
			return nil, false, false
		}
	}
	text = b[d.i:j]
	d.i = j
	return text, isInt, true
}

// int64Val reads an integer field: an integer of at most 18 digits (which
// always fits), or null (no change, 0). Other numbers are left to
// encoding/json, which refuses a fraction, an exponent or an overflow.
func (d *fastDec) int64Val() (int64, bool) {
	if d.peek() == 'n' {
		return 0, d.lit("null")
	}
	text, isInt, ok := d.number()
	if !ok || !isInt {
		return 0, false
	}
	neg := text[0] == '-'
	if neg {
		text = text[1:]
	}
	if len(text) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range text {
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// intVal is int64Val for an int field.
func (d *fastDec) intVal() (int, bool) {
	n, ok := d.int64Val()
	if int64(int(n)) != n {
		return 0, false
	}
	return int(n), ok
}

// skip reads any value, checking its syntax.
func (d *fastDec) skip(depth int) bool {
	switch c := d.peek(); {
	case c == '"':
		_, _, _, ok := d.scanString()
		return ok
	case c == '{':
		if depth >= maxSkipDepth {
			return false
		}
		return d.object(func([]byte) bool { return d.skip(depth + 1) })
	case c == '[':
		if depth >= maxSkipDepth {
			return false
		}
		return d.array(func() bool { return d.skip(depth + 1) })
	case c == 't':
		return d.lit("true")
	case c == 'f':
		return d.lit("false")
	case c == 'n':
		return d.lit("null")
	case c == '-' || '0' <= c && c <= '9':
		_, _, ok := d.number()
		return ok
	}
	return false
}

func (d *fastDec) completion(c *ChatCompletion) bool {
	var seen uint16
	return d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "id":
			c.ID, ok = d.str()
			return ok && once(&seen, 1<<0)
		case "object":
			c.Object, ok = d.str()
			return ok && once(&seen, 1<<1)
		case "created":
			c.Created, ok = d.int64Val()
			return ok && once(&seen, 1<<2)
		case "model":
			c.Model, ok = d.str()
			return ok && once(&seen, 1<<3)
		case "choices":
			return d.choices(c) && once(&seen, 1<<4)
		case "usage":
			c.Usage, ok = d.usage()
			return ok && once(&seen, 1<<5)
		case "system_fingerprint":
			c.SystemFingerprint, ok = d.str()
			return ok && once(&seen, 1<<6)
		}
		if equalFoldASCII(k, "error") {
			d.errorKey = true
		}
		return d.unknown(k, completionNames)
	})
}

func (d *fastDec) choices(c *ChatCompletion) bool { return fastSlice(d, &c.Choices, d.choice) }

// fastSlice decodes an array into *s, which is nil (a key given twice is
// left to encoding/json), as encoding/json does: null leaves it nil, an
// array makes it a non-nil slice of its elements, each decoded by elem.
func fastSlice[T any](d *fastDec, s *[]T, elem func(*T) bool) bool {
	if null, ok := d.null(); null || !ok {
		return ok
	}
	ok := d.array(func() bool {
		*s = append(*s, *new(T))
		return elem(&(*s)[len(*s)-1])
	})
	if *s == nil {
		*s = []T{}
	}
	return ok
}

func (d *fastDec) choice(ch *Choice) bool {
	if null, ok := d.null(); null || !ok {
		return ok
	}
	var seen uint16
	return d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "index":
			ch.Index, ok = d.intVal()
			return ok && once(&seen, 1<<0)
		case "message":
			return d.message(&ch.Message) && once(&seen, 1<<1)
		case "finish_reason":
			ch.FinishReason, ok = d.str()
			return ok && once(&seen, 1<<2)
		}
		return d.unknown(k, choiceNames)
	})
}

func (d *fastDec) message(m *Message) bool {
	if null, ok := d.null(); null || !ok {
		return ok
	}
	var seen uint16
	return d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "role":
			m.Role, ok = d.str()
			return ok && once(&seen, 1<<0)
		case "content":
			return d.content(&m.Content) && once(&seen, 1<<1)
		case "name":
			m.Name, ok = d.str()
			return ok && once(&seen, 1<<2)
		case "reasoning":
			m.Reasoning, ok = d.str()
			return ok && once(&seen, 1<<3)
		case "reasoning_content":
			m.ReasoningContent, ok = d.str()
			return ok && once(&seen, 1<<4)
		case "refusal":
			m.Refusal, ok = d.str()
			return ok && once(&seen, 1<<5)
		case "tool_calls":
			return d.toolCalls(m) && once(&seen, 1<<6)
		case "tool_call_id":
			m.ToolCallID, ok = d.str()
			return ok && once(&seen, 1<<7)
		case "function_call":
			if null, ok := d.null(); null || !ok {
				m.FunctionCall = nil
				return ok && once(&seen, 1<<8)
			}
			m.FunctionCall = new(FunctionCall)
			return d.function(m.FunctionCall) && once(&seen, 1<<8)
		}
		return d.unknown(k, messageNames)
	})
}

func (d *fastDec) toolCalls(m *Message) bool { return fastSlice(d, &m.ToolCalls, d.toolCall) }

func (d *fastDec) toolCall(tc *ToolCall) bool {
	if null, ok := d.null(); null || !ok {
		return ok
	}
	var seen uint16
	return d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "id":
			tc.ID, ok = d.str()
			return ok && once(&seen, 1<<0)
		case "type":
			tc.Type, ok = d.str()
			return ok && once(&seen, 1<<1)
		case "function":
			if null, ok := d.null(); null || !ok {
				return ok && once(&seen, 1<<2)
			}
			return d.function(&tc.Function) && once(&seen, 1<<2)
		}
		return d.unknown(k, toolCallNames)
	})
}

// function reads a function object (not null).
func (d *fastDec) function(f *FunctionCall) bool {
	var seen uint16
	return d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "name":
			f.Name, ok = d.str()
			return ok && once(&seen, 1<<0)
		case "arguments":
			f.Arguments, ok = d.str()
			return ok && once(&seen, 1<<1)
		}
		return d.unknown(k, functionNames)
	})
}

func (d *fastDec) usage() (*Usage, bool) {
	if null, ok := d.null(); null || !ok {
		return nil, ok
	}
	u := new(Usage)
	var seen uint16
	ok := d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "prompt_tokens":
			u.PromptTokens, ok = d.int64Val()
			return ok && once(&seen, 1<<0)
		case "completion_tokens":
			u.CompletionTokens, ok = d.int64Val()
			return ok && once(&seen, 1<<1)
		case "total_tokens":
			u.TotalTokens, ok = d.int64Val()
			return ok && once(&seen, 1<<2)
		case "cost":
			u.Cost, ok = d.float64Ptr()
			return ok && once(&seen, 1<<3)
		case "cost_in_usd_ticks":
			if null, ok := d.null(); null || !ok {
				u.CostInUSDTicks = nil
				return ok && once(&seen, 1<<4)
			}
			n, ok := d.int64Val()
			u.CostInUSDTicks = &n
			return ok && once(&seen, 1<<4)
		case "prompt_tokens_details":
			u.PromptTokensDetails, ok = d.details()
			return ok && once(&seen, 1<<5)
		case "prompt_cache_hit_tokens":
			u.PromptCacheHitTokens, ok = d.int64Val()
			return ok && once(&seen, 1<<6)
		}
		return d.unknown(k, usageNames)
	})
	return u, ok
}

// float64Ptr reads a float field behind a pointer: null is nil, a number
// is what strconv.ParseFloat reads (encoding/json's reading), and one out
// of range is left to encoding/json, which refuses it.
func (d *fastDec) float64Ptr() (*float64, bool) {
	if null, ok := d.null(); null || !ok {
		return nil, ok
	}
	text, _, ok := d.number()
	if !ok {
		return nil, false
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return nil, false
	}
	return &f, true
}

func (d *fastDec) details() (*TokenDetails, bool) {
	if null, ok := d.null(); null || !ok {
		return nil, ok
	}
	t := new(TokenDetails)
	var seen uint16
	ok := d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "cached_tokens":
			t.CachedTokens, ok = d.int64Val()
			return ok && once(&seen, 1<<0)
		case "cache_write_tokens":
			t.CacheWriteTokens, ok = d.int64Val()
			return ok && once(&seen, 1<<1)
		}
		return d.unknown(k, detailsNames)
	})
	return t, ok
}

// content reads a message's content as Content.UnmarshalJSON does.
func (d *fastDec) content(c *Content) bool {
	switch d.peek() {
	case 'n':
		*c = Content{Null: true}
		return d.lit("null")
	case '"':
		s, ok := d.str()
		*c = Content{Text: s}
		return ok
	case '[':
	default:
		return false
	}
	var text, reasoning []byte
	var images []ImageURL
	ok := d.array(func() bool {
		var p fastPart
		if !d.part(&p, 0) {
			return false
		}
		switch p.typ {
		case "thinking", "reasoning":
			reasoning = append(reasoning, p.text...)
			reasoning = append(reasoning, p.thinking...)
		case "image_url":
			if p.image != nil {
				images = append(images, *p.image)
			}
		default:
			text = append(text, p.text...)
		}
		return true
	})
	*c = Content{Text: string(text), Reasoning: string(reasoning), Images: images}
	return ok
}

// fastPart is a content part as read: thinking is the text
// contentPart.thinkingAt appends after the part's own text.
type fastPart struct {
	typ, text, thinking string
	image               *ImageURL
}

// part reads a content part at nesting depth (0 for the parts of a
// content array) as json.Unmarshal reads a contentPart, and the text its
// thinking gives (contentPart.thinkingAt).
func (d *fastDec) part(p *fastPart, depth int) bool {
	if null, ok := d.null(); null || !ok {
		return ok
	}
	var seen uint16
	return d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "type":
			p.typ, ok = d.str()
			return ok && once(&seen, 1<<0)
		case "text":
			p.text, ok = d.str()
			return ok && once(&seen, 1<<1)
		case "thinking":
			p.thinking, ok = d.thinking(depth)
			return ok && once(&seen, 1<<2)
		case "image_url":
			p.image, ok = d.imageURL()
			return ok && once(&seen, 1<<3)
		}
		return d.unknown(k, partNames)
	})
}

// thinking reads the thinking value of a part at depth and returns what
// thinkingAt appends for it: a string's text, or the text and thinking of
// each part of an array, nothing for other values or past maxPartDepth.
// An array thinkingAt would fail to read into parts (and ignore) is left
// to encoding/json.
func (d *fastDec) thinking(depth int) (string, bool) {
	if depth >= maxPartDepth {
		return "", d.skip(depth)
	}
	switch d.peek() {
	case '"':
		return d.str()
	case '[':
		var out []byte
		ok := d.array(func() bool {
			var sub fastPart
			if !d.part(&sub, depth+1) {
				return false
			}
			out = append(out, sub.text...)
			out = append(out, sub.thinking...)
			return true
		})
		return string(out), ok
	}
	return "", d.skip(depth)
}

func (d *fastDec) imageURL() (*ImageURL, bool) {
	if null, ok := d.null(); null || !ok {
		return nil, ok
	}
	im := new(ImageURL)
	var seen uint16
	ok := d.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "url":
			im.URL, ok = d.str()
			return ok && once(&seen, 1<<0)
		case "detail":
			im.Detail, ok = d.str()
			return ok && once(&seen, 1<<1)
		}
		return d.unknown(k, imageURLNames)
	})
	return im, ok
}
