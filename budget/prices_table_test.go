package budget

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// The compiled-in table is prices.json decoded as the JSON was before it
// was generated as Go data, in LookupPrice's order: a prices.json edited
// without `go generate ./budget` fails here.
func TestPriceTableIsPricesJSON(t *testing.T) {
	data, err := os.ReadFile("prices.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Prices []Price `json:"prices"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("prices.json: %v", err)
	}
	want := file.Prices
	slices.SortFunc(want, func(a, b Price) int {
		if d := len(b.Model) - len(a.Model); d != 0 {
			return d
		}
		return strings.Compare(a.Model, b.Model)
	})
	if len(want) == 0 {
		t.Fatal("prices.json lists no prices")
	}
	if got := prices[:]; !slices.Equal(got, want) {
		for i := range max(len(got), len(want)) {
			var g, w Price
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("entry %d: generated %+v, prices.json %+v", i, g, w)
			}
		}
		t.Fatal("prices_table.go is not prices.json: run go generate ./budget")
	}
}
