// Package pyfmt does what CPython 3.12 does where numbers and text meet,
// over plain Go values (int64, *big.Int, float64, string) and without an
// interpreter's object model:
//
//   - repr and str of floats and complex numbers (FloatRepr, ComplexRepr);
//   - int() of text (ParseInt), str() and bin/oct/hex of ints (IntString,
//     IntBase), with the int_max_str_digits limit;
//   - float() of text (ParseFloat), float.hex, float.fromhex,
//     as_integer_ratio, is_integer;
//   - the format-spec mini-language of format() and f-strings (FormatInt,
//     FormatBigInt, FormatFloat, FormatComplex, FormatStr, ParseSpec);
//   - printf-style str % values (Percent, with the values seen through
//     the Arg interface);
//   - round() (RoundFloat, RoundFloatDigits, RoundInt) and int(float);
//   - the arithmetic Go's operators or math package would get wrong: float
//     % // divmod and **, int / int, int // % divmod, int ** int, pow with a
//     modulus, int to float, and the math functions exp, log, log2, log10,
//     sqrt, hypot, fsum, factorial, comb, perm, isqrt, gcd, lcm;
//   - hash() of ints, floats and complex numbers.
//
// Every function either returns exactly what CPython 3.12 (on Linux,
// glibc 2.36) returns or an *Error carrying the exception CPython raises,
// with its message. Where a result may differ from CPython's in the last
// bit (exp, log2 and float ** where glibc misrounds), the function's
// documentation says so, with the measured rate.
//
// Strings are Go strings holding UTF-8. Where Python counts characters
// (widths, precisions on strings, error positions), this package counts code
// points, an invalid UTF-8 byte counting as one code point.
//
// Untrusted sizes: the functions that build text take a limit, the largest
// result in bytes the caller accepts (0 for none, which an interpreter
// should never pass). A width or precision whose result would exceed it is
// refused before anything is allocated, with an *Error of type
// MemoryError. Conversions between ints and decimal text take the digit
// limit of sys.set_int_max_str_digits (DefaultMaxStrDigits unless the
// program changed it; 0 for none). The big-int functions whose results
// can be huge (Factorial, Comb, Perm, IntPow, LCM) take a bound on the
// result's size in bits, checked from an estimate before computing; those
// that can run long (Factorial, Comb, Perm, IntPow, IntPowMod) take a
// context.Context checked between steps.
package pyfmt

import "fmt"

// Error is a Python exception: Type is its class name ("ValueError",
// "OverflowError", "TypeError", "ZeroDivisionError", "MemoryError",
// "KeyError") and Msg its message, str() of the exception, exactly as
// CPython words it.
type Error struct {
	Type string
	Msg  string
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return e.Type
	}
	return e.Type + ": " + e.Msg
}

func errorf(typ, format string, args ...any) *Error {
	return &Error{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

func valueError(format string, args ...any) *Error {
	return errorf("ValueError", format, args...)
}

func overflowError(format string, args ...any) *Error {
	return errorf("OverflowError", format, args...)
}

func typeError(format string, args ...any) *Error {
	return errorf("TypeError", format, args...)
}

// checkSize reports a MemoryError when a result of n bytes exceeds limit
// (0: no limit).
func checkSize(n int64, limit int) error {
	if limit > 0 && (n > int64(limit) || n < 0) {
		return &Error{Type: "MemoryError", Msg: fmt.Sprintf("the result would take %d bytes, more than code mode's value bound of %d bytes", n, limit)}
	}
	return nil
}
