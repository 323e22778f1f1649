package collections

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// FuzzDeque runs a sequence of deque operations (one per byte) against a
// slice model.
func FuzzDeque(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, int8(-1))
	f.Add([]byte{0, 0, 0, 1, 1, 1, 4, 4, 5, 2, 3}, int8(2))
	f.Fuzz(func(t *testing.T, ops []byte, maxlen int8) {
		d := &deque{maxlen: int(maxlen)}
		if maxlen < 0 {
			d.maxlen = -1
		}
		var model []int64
		next := int64(0)
		clip := func(front bool) {
			if d.maxlen >= 0 && len(model) > d.maxlen {
				if front {
					model = model[len(model)-d.maxlen:]
				} else {
					model = model[:d.maxlen]
				}
			}
		}
		for _, op := range ops {
			switch op % 8 {
			case 0:
				next++
				_ = d.pushBack(nil, python.MakeInt(next))
				model = append(model, next)
				clip(true)
			case 1:
				next++
				_ = d.pushFront(nil, python.MakeInt(next))
				model = append([]int64{next}, model...)
				clip(false)
			case 2:
				v := d.popBack()
				if (v == nil) != (len(model) == 0) {
					t.Fatal("popBack emptiness")
				}
				if v != nil {
					model = model[:len(model)-1]
				}
			case 3:
				v := d.popFront()
				if v != nil {
					model = model[1:]
				}
			case 4:
				k := int64(op/8) - 16
				d.rotate(k)
				if n := int64(len(model)); n > 1 {
					k %= n
					if k < 0 {
						k += n
					}
					model = append(model[n-k:], model[:n-k]...)
				}
			case 5:
				if len(model) > 0 {
					i := int(op/8) % len(model)
					d.delAt(i)
					model = append(model[:i:i], model[i+1:]...)
				}
			case 6:
				d.clear()
				model = nil
			case 7:
				items := d.items()
				for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
					items[i], items[j] = items[j], items[i]
				}
				d.reset(items)
				for i, j := 0, len(model)-1; i < j; i, j = i+1, j-1 {
					model[i], model[j] = model[j], model[i]
				}
			}
			if d.n != len(model) {
				t.Fatalf("len %d, model %d", d.n, len(model))
			}
			for i, want := range model {
				got, _ := python.AsInt64(d.at(i))
				if got != want {
					t.Fatalf("item %d: %d, model %d", i, got, want)
				}
			}
		}
	})
}
