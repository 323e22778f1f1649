package launcher

import "testing"

func TestKeepsHeapFloor(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{nil, true},
		{map[string]string{"GOGC": "100"}, false},
		{map[string]string{"GOGC": ""}, false}, // set, even if empty: the user's choice
		{map[string]string{"GOMEMLIMIT": "1GiB"}, false},
		{map[string]string{"GODEBUG": "gctrace=1"}, true},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		if got := keepsHeapFloor(lookup); got != tc.want {
			t.Errorf("keepsHeapFloor(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
}
