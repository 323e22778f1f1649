package openai

import (
	"strings"
	"testing"
)

func TestCacheScopeSeparatesOwners(t *testing.T) {
	mk := func(base, key string, h map[string]string) string {
		t.Helper()
		p, err := New(Config{BaseURL: base, Model: "m", APIKey: key, Headers: h})
		if err != nil {
			t.Fatal(err)
		}
		return p.CacheScope()
	}
	a := mk("http://127.0.0.1:1/v1", "sk-aaaaaaaaaaaaaaaaaaaa", nil)
	if a != mk("http://127.0.0.1:1/v1", "sk-aaaaaaaaaaaaaaaaaaaa", nil) {
		t.Fatal("one owner, two scopes")
	}
	for _, other := range []string{
		mk("http://127.0.0.1:2/v1", "sk-aaaaaaaaaaaaaaaaaaaa", nil),
		mk("http://127.0.0.1:1/v1", "sk-bbbbbbbbbbbbbbbbbbbb", nil),
		mk("http://127.0.0.1:1/v1", "", nil),
		mk("http://127.0.0.1:1/v1", "sk-aaaaaaaaaaaaaaaaaaaa", map[string]string{"X-Api-Key": "other"}),
	} {
		if other == a {
			t.Fatal("different owners share a scope")
		}
	}
	if strings.Contains(a, "aaaaaaaaaaaaaaaa") {
		t.Fatal("the scope holds the key")
	}
}
