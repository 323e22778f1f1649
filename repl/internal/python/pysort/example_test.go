package pysort_test

import (
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python/pysort"
)

// The first comparison that fails in sorted([3, None, 1]) is None < 3, so
// CPython's TypeError names 'NoneType' and 'int', in that order.
func ExampleSlice() {
	items := []any{3, nil, 1}
	err := pysort.Slice(items, false, func(a, b any) (bool, error) {
		x, ok1 := a.(int)
		y, ok2 := b.(int)
		if !ok1 || !ok2 {
			return false, fmt.Errorf("'<' not supported between %v and %v", a, b)
		}
		return x < y, nil
	})
	fmt.Println(err)
	fmt.Println(items)
	// Output:
	// '<' not supported between <nil> and 3
	// [3 <nil> 1]
}

// With key=, CPython computes every key first and then sorts the keys,
// moving the items along; Sort's permutation does the moving.
func ExampleSort() {
	items := []string{"banana", "Cherry", "apple", "cherry"}
	keys := []int{6, 6, 5, 6} // len(item) for each item
	perm, _ := pysort.Sort(len(keys), true, func(a, b int) (bool, error) {
		return keys[a] < keys[b], nil
	})
	sorted := make([]string, len(items))
	for i, j := range perm {
		sorted[i] = items[j]
	}
	fmt.Println(sorted) // sorted(items, key=len, reverse=True)
	// Output: [banana Cherry cherry apple]
}
