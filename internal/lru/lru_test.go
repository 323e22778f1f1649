package lru

import "testing"

type entry struct{ used uint64 }

func TestSlot(t *testing.T) {
	a, b, c := &entry{5}, &entry{2}, &entry{9}
	used := func(e *entry) uint64 { return e.used }
	for _, tc := range []struct {
		name    string
		entries []*entry
		prev    *entry
		extends bool
		want    int
	}{
		{"extends a kept entry", []*entry{a, b, c}, c, true, 2},
		{"extends an entry no longer kept", []*entry{a, b, c}, &entry{1}, true, 1},
		{"does not extend", []*entry{a, b, c}, c, false, 1},
		{"no prev", []*entry{a, b, c}, nil, true, 1},
		{"an empty slot first", []*entry{a, nil, b, nil}, nil, false, 1},
		{"the first of equals", []*entry{c, {2}, {2}}, nil, false, 1},
		{"all empty", make([]*entry, 4), nil, false, 0},
	} {
		if got := Slot(tc.entries, tc.prev, tc.extends, used); got != tc.want {
			t.Errorf("%s: slot %d, want %d", tc.name, got, tc.want)
		}
	}
}
