package pystr

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The codecs implemented, by Python module name.
const (
	codecUTF8    = "utf_8"
	codecUTF8Sig = "utf_8_sig"
	codecASCII   = "ascii"
	codecLatin1  = "latin_1"
	codecUTF16   = "utf_16"
	codecUTF16LE = "utf_16_le"
	codecUTF16BE = "utf_16_be"
	codecUTF32   = "utf_32"
	codecUTF32LE = "utf_32_le"
	codecUTF32BE = "utf_32_be"
	codecCP1252  = "cp1252"
)

// normalizeEncoding normalizes an encoding name as CPython's codec lookup:
// ASCII letters, digits and '.' kept (letters lowered), each run of other
// bytes between two kept ones written '_'.
func normalizeEncoding(name string) string {
	b := make([]byte, 0, len(name))
	punct := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || 'A' <= c && c <= 'Z' {
			if punct && len(b) > 0 {
				b = append(b, '_')
			}
			punct = false
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		} else {
			punct = true
		}
	}
	return string(b)
}

// nonTextCodecs are the normalized names of CPython's bytes-to-bytes and
// str-to-str codecs, which str.encode and bytes.decode refuse.
var nonTextCodecs = []string{"base64", "base64_codec", "base_64", "bz2", "bz2_codec", "hex", "hex_codec",
	"quopri", "quopri_codec", "quoted_printable", "quotedprintable", "rot13", "rot_13", "uu", "uu_codec",
	"zip", "zlib", "zlib_codec"}

// supportedCodecs names the codecs implemented, for messages.
const supportedCodecs = "utf-8, utf-8-sig, ascii, latin-1, utf-16, utf-16-le, utf-16-be, utf-32, utf-32-le, utf-32-be, cp1252"

// lookupCodec returns the module name of a supported text codec. alt is
// the function CPython's message for a codec that is not a text encoding
// names ("codecs.encode()"); with alt "" such a codec is refused as not
// supported.
func lookupCodec(name, alt string) (string, error) {
	norm := normalizeEncoding(name)
	mod, ok := find2(codecAliases[:], norm)
	if !ok {
		mod, ok = find2(codecAliases[:], replaceDots(norm))
	}
	if !ok {
		mod = norm
	}
	if _, ok := find2(codecNames[:], mod); ok {
		return mod, nil
	}
	if alt != "" && (has(nonTextCodecs, norm) || has(nonTextCodecs, replaceDots(norm))) {
		return "", &Error{"LookupError", "'" + name + "' is not a text encoding; use " + alt + " to handle arbitrary codecs"}
	}
	known := has(knownAliases[:], norm) || has(knownAliases[:], replaceDots(norm)) ||
		strings.IndexByte(norm, '.') < 0 && has(knownModules[:], norm)
	if known {
		return "", &Error{"NotImplementedError", "the encoding '" + name + "' is not supported in code mode; use one of " + supportedCodecs}
	}
	return "", &Error{"LookupError", "unknown encoding: " + name}
}

// find2 returns the value of key in a list of (key, value) sorted by key.
func find2(list [][2]string, key string) (string, bool) {
	i := sort.Search(len(list), func(i int) bool { return list[i][0] >= key })
	if i < len(list) && list[i][0] == key {
		return list[i][1], true
	}
	return "", false
}

// has reports whether sorted list holds s.
func has(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}

func replaceDots(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '.' {
			b[i] = '_'
		}
	}
	return string(b)
}

// LookupEncoding returns the name of the codec for encoding name, as
// Python's codecs.lookup(name).name ("utf-8", "iso8859-1", ...). It returns
// LookupError "unknown encoding: NAME" for a name Python does not know,
// and NotImplementedError "the encoding 'NAME' is not supported in code
// mode; ..." for one Python knows that this package does not implement.
func LookupEncoding(name string) (string, error) {
	mod, err := lookupCodec(name, "")
	if err != nil {
		return "", err
	}
	n, _ := find2(codecNames[:], mod)
	return n, nil
}

// errUnknownHandler is Python's error for an unknown error handler name,
// raised when the first error needs it.
func errUnknownHandler(errors string) error {
	return &Error{"LookupError", "unknown error handler name '" + errors + "'"}
}

// Encode returns s encoded with encoding, as Python's str.encode(encoding,
// errors), the bytes as a string. Codecs: utf-8 (and utf-8-sig), ascii,
// latin-1, utf-16, utf-16-le, utf-16-be, utf-32, utf-32-le, utf-32-be and
// cp1252, by any name Python accepts for them. Error handlers: strict,
// ignore, replace, backslashreplace, xmlcharrefreplace, namereplace,
// surrogateescape and surrogatepass (which act as strict, as they do in
// Python for a string without surrogates); an unknown one is LookupError
// "unknown error handler name 'NAME'" when an error needs it. Errors are
// *UnicodeError (UnicodeEncodeError), *Error (LookupError) and *LimitError
// when the result would exceed limit bytes.
func Encode(s, encoding, errors string, limit int) (string, error) {
	mod, err := lookupCodec(encoding, "codecs.encode()")
	if err != nil {
		return "", err
	}
	switch mod {
	case codecUTF8, codecUTF8Sig:
		t := sanitize(s)
		if mod == codecUTF8Sig {
			if err := checkLimit("encode", addSize(len(t), 3), limit); err != nil {
				return "", err
			}
			return "\xef\xbb\xbf" + t, nil
		}
		if err := checkLimit("encode", len(t), limit); err != nil {
			return "", err
		}
		return t, nil
	case codecASCII, codecLatin1, codecCP1252:
		return encodeBytes(s, mod, errors, limit)
	case codecUTF16, codecUTF16LE, codecUTF16BE:
		return encodeUTF16(s, mod, limit)
	default:
		return encodeUTF32(s, mod, limit)
	}
}

// encodeCP1252 returns the cp1252 byte for r.
func encodeCP1252(r rune) (byte, bool) {
	if r < 0x80 || 0xA0 <= r && r < 0x100 {
		return byte(r), true
	}
	for i, c := range cp1252High {
		if c != 0 && rune(c) == r {
			return byte(0x80 + i), true
		}
	}
	return 0, false
}

// encodeBytes implements the single-byte codecs: ascii, latin-1, cp1252.
func encodeBytes(s, mod, errors string, limit int) (string, error) {
	if IsASCII(s) {
		if err := checkLimit("encode", len(s), limit); err != nil {
			return "", err
		}
		return s, nil
	}
	enc := func(r rune) (byte, bool) {
		switch mod {
		case codecASCII:
			return byte(r), r < 0x80
		case codecLatin1:
			return byte(r), r < 0x100
		}
		return encodeCP1252(r)
	}
	name, reason := "ascii", "ordinal not in range(128)"
	switch mod {
	case codecLatin1:
		name, reason = "latin-1", "ordinal not in range(256)"
	case codecCP1252:
		name, reason = "charmap", "character maps to <undefined>"
	}
	out := make([]byte, 0, len(s))
	k := 0 // code-point index of i
	for i := 0; i < len(s); {
		r, size := decodeAt(s, i)
		if c, ok := enc(r); ok {
			out = append(out, c)
			i += size
			k++
			continue
		}
		// Collect the run of characters that cannot be encoded.
		start, startByte := k, i
		for i < len(s) {
			r, size := decodeAt(s, i)
			if _, ok := enc(r); ok {
				break
			}
			i += size
			k++
		}
		run := s[startByte:i]
		switch errors {
		case "strict", "surrogateescape", "surrogatepass":
			return "", &UnicodeError{Type: "UnicodeEncodeError", Encoding: name, Object: s, Start: start, End: k, Reason: reason}
		case "ignore":
		case "replace":
			for range run {
				out = append(out, '?')
			}
		case "backslashreplace":
			for _, r := range run {
				out = appendEscape(out, r)
			}
		case "xmlcharrefreplace":
			for _, r := range run {
				out = append(out, "&#"...)
				out = strconv.AppendInt(out, int64(r), 10)
				out = append(out, ';')
			}
		case "namereplace":
			for _, r := range run {
				if n, err := Name(r); err == nil {
					out = append(out, `\N{`...)
					out = append(out, n...)
					out = append(out, '}')
				} else {
					out = appendEscape(out, r)
				}
			}
		default:
			return "", errUnknownHandler(errors)
		}
		if len(out) > limit {
			return "", &LimitError{Op: "encode", Need: -1, Limit: limit}
		}
	}
	if err := checkLimit("encode", len(out), limit); err != nil {
		return "", err
	}
	return bytesString(out), nil
}

func encodeUTF16(s, mod string, limit int) (string, error) {
	n := 0
	for _, r := range s {
		n += 2
		if r >= 0x10000 {
			n += 2
		}
	}
	bom := mod == codecUTF16
	if bom {
		n += 2
	}
	if err := checkLimit("encode", n, limit); err != nil {
		return "", err
	}
	out := make([]byte, 0, n)
	be := mod == codecUTF16BE
	put := func(u uint16) {
		if be {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			put(uint16(0xD800 + r>>10))
			put(uint16(0xDC00 + r&0x3FF))
		} else {
			put(uint16(r))
		}
	}
	return bytesString(out), nil
}

func encodeUTF32(s, mod string, limit int) (string, error) {
	bom := mod == codecUTF32
	n := mulSize(utf8.RuneCountInString(s)+boolInt(bom), 4)
	if err := checkLimit("encode", n, limit); err != nil {
		return "", err
	}
	out := make([]byte, 0, n)
	be := mod == codecUTF32BE
	put := func(u rune) {
		if be {
			out = append(out, byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for _, r := range s {
		put(r)
	}
	return bytesString(out), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// decoder holds the state of one decoding.
type decoder struct {
	b      string // the bytes decoded (for utf-8-sig, without the BOM)
	name   string // the codec's name in errors
	errors string
	limit  int
	out    []byte
	// surrPass returns the size of the encoded surrogate at start, or 0,
	// for the surrogatepass error handler.
	surrPass func(start int) int
	// surrogates records that an error handler produced a lone
	// surrogate, which the result cannot hold.
	surrogates string
}

// fail handles a decoding error over bytes [start, end) as Python's error
// handlers: it returns where decoding resumes, or the error to return.
func (d *decoder) fail(start, end int, reason string) (int, error) {
	exc := func() error {
		return &UnicodeError{Type: "UnicodeDecodeError", Encoding: d.name, Object: d.b, Start: start, End: end, Reason: reason}
	}
	switch d.errors {
	case "strict":
		return 0, exc()
	case "ignore":
	case "replace":
		d.out = append(d.out, "\uFFFD"...)
	case "backslashreplace":
		for i := start; i < end; i++ {
			c := d.b[i]
			d.out = append(d.out, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		}
	case "surrogateescape":
		// Up to 4 leading non-ASCII bytes become U+DC80..U+DCFF.
		n := 0
		for n < 4 && start+n < end && d.b[start+n] >= 0x80 {
			n++
		}
		if n == 0 {
			return 0, exc()
		}
		d.surrogates = "the surrogateescape error handler would decode bytes to lone surrogates"
		return start + n, nil
	case "surrogatepass":
		n := 0
		if d.surrPass != nil {
			n = d.surrPass(start)
		}
		if n == 0 {
			return 0, exc()
		}
		d.surrogates = "the surrogatepass error handler would decode a lone surrogate"
		return start + n, nil
	case "xmlcharrefreplace", "namereplace":
		return 0, typeError("don't know how to handle UnicodeDecodeError in error callback")
	default:
		return 0, errUnknownHandler(d.errors)
	}
	if len(d.out) > d.limit {
		return 0, &LimitError{Op: "decode", Need: -1, Limit: d.limit}
	}
	return end, nil
}

// Decode returns the bytes b decoded with encoding, as Python's
// bytes.decode(encoding, errors); see Encode for the codecs. Error
// handlers: strict, ignore, replace, backslashreplace; xmlcharrefreplace
// and namereplace are TypeError "don't know how to handle
// UnicodeDecodeError in error callback", as in Python; surrogateescape and
// surrogatepass act as in Python where they would not produce a lone
// surrogate, and return an *UnsupportedError where they would. Errors are
// *UnicodeError (UnicodeDecodeError, positions in bytes), *Error,
// *UnsupportedError, and *LimitError when the result would exceed limit
// bytes.
func Decode(b, encoding, errors string, limit int) (string, error) {
	mod, err := lookupCodec(encoding, "codecs.decode()")
	if err != nil {
		return "", err
	}
	d := &decoder{b: b, errors: errors, limit: limit}
	var res string
	switch mod {
	case codecUTF8, codecUTF8Sig:
		if mod == codecUTF8Sig && len(b) >= 3 && b[:3] == "\xef\xbb\xbf" {
			d.b = b[3:]
		}
		res, err = d.utf8()
	case codecASCII, codecLatin1, codecCP1252:
		res, err = d.bytes(mod)
	case codecUTF16, codecUTF16LE, codecUTF16BE:
		res, err = d.utf16(mod)
	default:
		res, err = d.utf32(mod)
	}
	if err != nil {
		return "", err
	}
	if d.surrogates != "" {
		return "", &UnsupportedError{d.surrogates}
	}
	if err := checkLimit("decode", len(res), limit); err != nil {
		return "", err
	}
	return res, nil
}

func (d *decoder) bytes(mod string) (string, error) {
	b := d.b
	if IsASCII(b) {
		return b, nil
	}
	d.out = make([]byte, 0, len(b)+len(b)/2)
	d.name = map[string]string{codecASCII: "ascii", codecLatin1: "latin-1", codecCP1252: "charmap"}[mod]
	for i := 0; i < len(b); {
		c := b[i]
		reason := ""
		switch {
		case c < 0x80 || mod == codecLatin1 || mod == codecCP1252 && c >= 0xA0:
			d.out = appendRune(d.out, rune(c))
		case mod == codecASCII:
			reason = "ordinal not in range(128)"
		case cp1252High[c-0x80] != 0:
			d.out = appendRune(d.out, rune(cp1252High[c-0x80]))
		default:
			reason = "character maps to <undefined>"
		}
		if reason == "" {
			i++
			continue
		}
		next, err := d.fail(i, i+1, reason)
		if err != nil {
			return "", err
		}
		i = next
	}
	return bytesString(d.out), nil
}

func isCont(c byte) bool { return c&0xC0 == 0x80 }

func (d *decoder) utf8() (string, error) {
	b := d.b
	if utf8.ValidString(b) {
		return b, nil
	}
	d.name = "utf-8"
	d.surrPass = func(i int) int {
		if i+2 < len(b) && b[i] == 0xED && 0xA0 <= b[i+1] && b[i+1] <= 0xBF && isCont(b[i+2]) {
			return 3
		}
		return 0
	}
	d.out = make([]byte, 0, len(b)+len(b)/2)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			d.out = append(d.out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(b[i:])
		if r != utf8.RuneError || size != 1 {
			d.out = append(d.out, b[i:i+size]...)
			i += size
			continue
		}
		// An error: its extent, as CPython's decoder finds it.
		var need int // continuation bytes expected
		lo, hi := byte(0x80), byte(0xBF)
		switch {
		case 0xC2 <= c && c <= 0xDF:
			need = 1
		case 0xE0 <= c && c <= 0xEF:
			need = 2
			if c == 0xE0 {
				lo = 0xA0
			} else if c == 0xED {
				hi = 0x9F
			}
		case 0xF0 <= c && c <= 0xF4:
			need = 3
			if c == 0xF0 {
				lo = 0x90
			} else if c == 0xF4 {
				hi = 0x8F
			}
		default:
			next, err := d.fail(i, i+1, "invalid start byte")
			if err != nil {
				return "", err
			}
			i = next
			continue
		}
		// Count the valid bytes after the start byte.
		k := 1
		for ; k <= need && i+k < len(b); k++ {
			x := b[i+k]
			if k == 1 {
				if x < lo || x > hi {
					break
				}
			} else if !isCont(x) {
				break
			}
		}
		var next int
		var err error
		if k <= need && i+k == len(b) {
			next, err = d.fail(i, len(b), "unexpected end of data")
		} else {
			next, err = d.fail(i, i+k, "invalid continuation byte")
		}
		if err != nil {
			return "", err
		}
		i = next
	}
	return bytesString(d.out), nil
}

func (d *decoder) utf16(mod string) (string, error) {
	b := d.b
	be := mod == codecUTF16BE
	i := 0
	if mod == codecUTF16 && len(b) >= 2 {
		switch b[:2] {
		case "\xff\xfe":
			i = 2
		case "\xfe\xff":
			i, be = 2, true
		}
	}
	d.name = "utf-16-le"
	if be {
		d.name = "utf-16-be"
	}
	unit := func(j int) rune {
		if be {
			return rune(b[j])<<8 | rune(b[j+1])
		}
		return rune(b[j+1])<<8 | rune(b[j])
	}
	d.surrPass = func(j int) int {
		if j+2 <= len(b) {
			if u := unit(j); 0xD800 <= u && u < 0xE000 {
				return 2
			}
		}
		return 0
	}
	d.out = make([]byte, 0, len(b)+len(b)/2)
	for i < len(b) {
		var next int
		var err error
		if len(b)-i < 2 {
			next, err = d.fail(i, len(b), "truncated data")
		} else {
			u := unit(i)
			switch {
			case u < 0xD800 || u > 0xDFFF:
				d.out = appendRune(d.out, u)
				i += 2
				continue
			case u >= 0xDC00:
				next, err = d.fail(i, i+2, "illegal encoding")
			case len(b)-i < 4:
				next, err = d.fail(i, len(b), "unexpected end of data")
			default:
				u2 := unit(i + 2)
				if 0xDC00 <= u2 && u2 <= 0xDFFF {
					d.out = appendRune(d.out, 0x10000+(u-0xD800)<<10+(u2-0xDC00))
					i += 4
					continue
				}
				next, err = d.fail(i, i+2, "illegal UTF-16 surrogate")
			}
		}
		if err != nil {
			return "", err
		}
		i = next
	}
	return bytesString(d.out), nil
}

func (d *decoder) utf32(mod string) (string, error) {
	b := d.b
	be := mod == codecUTF32BE
	i := 0
	if mod == codecUTF32 && len(b) >= 4 {
		switch b[:4] {
		case "\xff\xfe\x00\x00":
			i = 4
		case "\x00\x00\xfe\xff":
			i, be = 4, true
		}
	}
	d.name = "utf-32-le"
	if be {
		d.name = "utf-32-be"
	}
	unit := func(j int) uint32 {
		if be {
			return uint32(b[j])<<24 | uint32(b[j+1])<<16 | uint32(b[j+2])<<8 | uint32(b[j+3])
		}
		return uint32(b[j+3])<<24 | uint32(b[j+2])<<16 | uint32(b[j+1])<<8 | uint32(b[j])
	}
	d.surrPass = func(j int) int {
		if j+4 <= len(b) {
			if u := unit(j); 0xD800 <= u && u < 0xE000 {
				return 4
			}
		}
		return 0
	}
	d.out = make([]byte, 0, len(b))
	for i < len(b) {
		var next int
		var err error
		if len(b)-i < 4 {
			next, err = d.fail(i, len(b), "truncated data")
		} else {
			u := unit(i)
			switch {
			case u > 0x10FFFF:
				next, err = d.fail(i, i+4, "code point not in range(0x110000)")
			case 0xD800 <= u && u < 0xE000:
				next, err = d.fail(i, i+4, "code point in surrogate code point range(0xd800, 0xe000)")
			default:
				d.out = appendRune(d.out, rune(u))
				i += 4
				continue
			}
		}
		if err != nil {
			return "", err
		}
		i = next
	}
	return bytesString(d.out), nil
}
