// Package pystr implements the algorithms of CPython 3.12's str type and
// of its unicodedata module over Go strings, for the Python interpreter.
//
// # Strings
//
// A Python str is a sequence of code points; here it is a Go string holding
// UTF-8. Lengths, indexes and offsets taken and returned by this package
// count code points, never bytes, unless a name says Byte. A string that is
// not valid UTF-8 is read as Go reads it: each byte that does not begin a
// valid UTF-8 sequence is one code point, U+FFFD (so a UTF-8 encoded
// surrogate, invalid in UTF-8, is three U+FFFD). Every function here keeps
// to that reading; functions that build new text write such a code point
// as the UTF-8 of U+FFFD, and functions that return parts of their input
// may return the invalid bytes themselves. Python strings holding lone
// surrogates cannot be represented: where Python would produce one (the
// surrogateescape and surrogatepass error handlers, a translate table
// mapping to one), the function returns an *UnsupportedError instead.
//
// Strings are often large and often ASCII: every function takes time linear
// in its input and output, allocates little more than its result, and takes
// a fast path for ASCII text. [IsASCII] tells cheaply whether a string is
// ASCII (several GB/s); [Index] maps code-point offsets to byte offsets for
// the indexing, slicing and searching of long non-ASCII strings.
//
// Measured with go test -run '^$' -bench . -benchmem on a shared 2-core
// machine (figures are upper bounds): building an Index costs one IsASCII
// pass for ASCII text and about 300-450 MB/s for mixed non-ASCII text,
// whose index takes 35 KB per MB (4 bytes per 64 code points: at most 64
// KB per MB, for text with few non-ASCII characters); s[i] costs about 12
// ns on ASCII and 100-500 ns on non-ASCII text of 1 KB to 100 MB, a
// 100-code-point s[a:b] 30 ns and 150-650 ns; Len reads ASCII at
// several GB/s and non-ASCII at 200-450 MB/s (Index.Len is O(1)).
//
// # Arguments and errors
//
// Optional integer arguments that Python allows to be None (start and end
// of find, the parts of a slice) are of type [Opt]; its zero value is None.
// Integers outside the range of int must be clamped by the caller to
// [-math.MaxInt, math.MaxInt], which never changes a result.
//
// Python exceptions are returned as errors: *[Error] (exception type and
// message), *[UnicodeError] (UnicodeEncodeError and UnicodeDecodeError with
// their attributes), *[LimitError] (a result would exceed the byte limit the
// caller set) and *[UnsupportedError] (Python would succeed, but the result
// is not representable here). Type checks of arguments are the caller's.
//
// # Unicode data
//
// The character database is that of Python 3.12, Unicode 15.0.0. Its
// tables (tables.go) are generated from data recorded from CPython 3.12 by
// testdata/gen_ucd.py, and checked against it for every code point by the
// tests; names come from golang.org/x/text/unicode/runenames and
// normalization from golang.org/x/text/unicode/norm, both Unicode 15.0.0
// with Go 1.26, also checked against recorded data.
package pystr

//go:generate /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_ucd.py
//go:generate go run gen_tables.go
//go:generate /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_cases.py
