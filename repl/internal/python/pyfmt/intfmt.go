package pyfmt

import (
	"math/big"
	"strconv"
)

// limitMsg is CPython's error for an int with too many decimal digits.
func limitError(maxDigits int) error {
	return valueError("Exceeds the limit (%d digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit", maxDigits)
}

// IntString is str(x) and repr(x) of a Python int. An int of more than
// maxDigits decimal digits (0: no limit) is refused as CPython refuses it,
// with "Exceeds the limit (4300 digits) for integer string conversion; use
// sys.set_int_max_str_digits() to increase the limit"; one far over the
// limit is refused before any conversion.
func IntString(x *big.Int, maxDigits int) (string, error) {
	if x.IsInt64() {
		return strconv.FormatInt(x.Int64(), 10), nil
	}
	if err := checkDigits(x, maxDigits); err != nil {
		return "", err
	}
	s := x.String()
	n := len(s)
	if x.Sign() < 0 {
		n--
	}
	if maxDigits > 0 && n > maxDigits {
		return "", limitError(maxDigits)
	}
	return s, nil
}

// checkDigits refuses, before converting, an int whose decimal digits
// surely exceed maxDigits.
func checkDigits(x *big.Int, maxDigits int) error {
	// x has at least floor((bits-1)*log10(2))+1 digits
	if maxDigits > 0 && float64(x.BitLen()-1)*0.30102999566398114 >= float64(maxDigits)+1 {
		return limitError(maxDigits)
	}
	return nil
}

// IntBase is bin(x), oct(x) or hex(x) for base 2, 8 or 16: "0b101",
// "-0o17", "0x1f". These have no digit limit.
func IntBase(x *big.Int, base int) string {
	var prefix string
	switch base {
	case 2:
		prefix = "0b"
	case 8:
		prefix = "0o"
	default:
		base, prefix = 16, "0x"
	}
	if x.Sign() < 0 {
		return "-" + prefix + new(big.Int).Neg(x).Text(base)
	}
	return prefix + x.Text(base)
}

// Int64Base is IntBase for an int64.
func Int64Base(x int64, base int) string {
	var prefix string
	switch base {
	case 2:
		prefix = "0b"
	case 8:
		prefix = "0o"
	default:
		base, prefix = 16, "0x"
	}
	if x < 0 {
		return "-" + prefix + strconv.FormatUint(uint64(-x), base)
	}
	return prefix + strconv.FormatUint(uint64(x), base)
}
