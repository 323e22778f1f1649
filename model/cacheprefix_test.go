package model

import (
	"reflect"
	"testing"
)

func TestCacheMarked(t *testing.T) {
	sys := Message{Role: RoleSystem, Content: "s"}
	user := Message{Role: RoleUser, Content: "u"}
	asst := Message{Role: RoleAssistant, Content: "a"}
	marked := func(m Message) Message { m.CacheBreakpoint = true; return m }
	for _, tt := range []struct {
		name      string
		msgs      []Message
		sys, last int
		want      []Message
	}{
		{"none", nil, -1, -1, []Message{}},
		{"one user message", []Message{user}, -1, 0, []Message{marked(user)}},
		{"system alone", []Message{sys}, 0, 0, []Message{marked(sys)}},
		{"system first", []Message{sys, user, asst, user}, 0, 3, []Message{marked(sys), user, asst, marked(user)}},
		{"the last system message", []Message{sys, user, sys, user}, 2, 3, []Message{sys, user, marked(sys), marked(user)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if s, l := CachePrefixAt(tt.msgs); s != tt.sys || l != tt.last {
				t.Errorf("CachePrefixAt %d, %d, want %d, %d", s, l, tt.sys, tt.last)
			}
			if got := MarkCachePrefix(tt.msgs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("MarkCachePrefix %+v, want %+v", got, tt.want)
			}
			req := Request{Model: "m", Messages: tt.msgs, CachePrefix: true}
			got := req.CacheMarked()
			if got.CachePrefix || !reflect.DeepEqual(got.Messages, tt.want) || got.Model != "m" {
				t.Errorf("CacheMarked %+v, want the messages %+v and CachePrefix false", got, tt.want)
			}
			req.CachePrefix = false
			if got := req.CacheMarked(); !reflect.DeepEqual(got, req) {
				t.Errorf("CacheMarked without CachePrefix %+v, want the request as it is", got)
			}
			for i, m := range tt.msgs {
				if m.CacheBreakpoint {
					t.Errorf("the caller's message %d was marked", i)
				}
			}
		})
	}
}
