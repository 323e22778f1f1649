package python

import "github.com/rlm-go/rlm/repl/internal/python/syntax"

// bytearraySetItem is ba[key] = v.
func bytearraySetItem(t *Thread, o *ByteArray, key, v Object) error {
	i, err := normIndex(t, key, len(o.b), "bytearray")
	if err != nil {
		return err
	}
	n, ok := AsInt64(v)
	if !ok || n < 0 || n > 255 {
		return Errorf(ValueErrorType, "byte must be in range(0, 256)")
	}
	o.b[i] = byte(n)
	return nil
}

// bytearrayDelItem is del ba[key].
func bytearrayDelItem(t *Thread, o *ByteArray, key Object) error {
	return Errorf(TypeErrorType, "'bytearray' object doesn't support item deletion")
}

// bytearrayBinary is ba op b (ba on the left).
func bytearrayBinary(t *Thread, op syntax.Operator, x *ByteArray, b Object) (Object, error) {
	return NotImplemented, nil
}

// bytearrayInplace is ba op= b.
func bytearrayInplace(t *Thread, op syntax.Operator, x *ByteArray, b Object) (Object, error) {
	if op == syntax.Add {
		if y, ok := bytesLike(b); ok {
			x.b = append(x.b, y...)
			return x, nil
		}
	}
	return NotImplemented, nil
}
