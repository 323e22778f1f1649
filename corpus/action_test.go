package corpus

import (
	"context"
	"encoding/json"
	"testing"
)

func TestDo(t *testing.T) {
	ctx := context.Background()
	s, h := newTestStore(t, "Alpha\nbeta alpha\ngamma\n")
	tests := []struct {
		action string
		want   string // JSON of the value
		kind   string
	}{
		{`{"type":"search","pattern":"alpha"}`, `[{"index":2,"offset":6,"match":11,"value":"beta alpha"}]`, ""},
		{`{"type":"search","pattern":"(?i)alpha","regex":true,"count_only":true}`, `2`, ""},
		{`{"type":"slice","start":6,"length":4}`, `{"start":6,"length":4,"text":"beta"}`, ""},
		{`{"type":"peek","selector":"head","count":5}`, `{"start":0,"length":5,"text":"Alpha"}`, ""},
		{`{"type":"peek","selector":"tail","count":6}`, `{"start":17,"length":6,"text":"gamma\n"}`, ""},
		{`{"type":"partition","strategy":"lines","size":2}`, `[{"index":0,"start":0,"length":17},{"index":1,"start":17,"length":6}]`, ""},
		{`{"type":"partition","strategy":"bytes","size":100,"with_text":true}`, `[{"index":0,"start":0,"length":23,"text":"Alpha\nbeta alpha\ngamma\n"}]`, ""},
		{`{"type":"map","transform":"uppercase"}`, `[{"index":1,"value":"ALPHA"},{"index":2,"value":"BETA ALPHA"},{"index":3,"value":"GAMMA"}]`, ""},
		{`{"type":"map","transform":"length"}`, `[{"index":1,"value":5},{"index":2,"value":10},{"index":3,"value":5}]`, ""},
		{`{"type":"reduce","reducer":"count"}`, `3`, ""},
		{`{"type":"reduce","reducer":"byte_count"}`, `23`, ""},
		{`{"type":"grep","pattern":"x"}`, ``, string(KindInvalidAction)},
		{`{"type":"map","transform":"reverse"}`, ``, string(KindInvalidTransform)},
		{`{"type":"reduce","reducer":"sum"}`, ``, string(KindInvalidReducer)},
		{`{"type":"search","pattern":""}`, ``, string(KindInvalidPattern)},
		{`{"type":"slice","start":99}`, ``, string(KindOutOfRange)},
	}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			var a Action
			if err := json.Unmarshal([]byte(tt.action), &a); err != nil {
				t.Fatal(err)
			}
			r, err := s.Do(ctx, h, a, Limits{})
			if tt.kind != "" {
				wantKind(t, err, faultKind(tt.kind))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(r.Value)
			if string(got) != tt.want {
				t.Fatalf("value = %s\nwant    %s", got, tt.want)
			}
		})
	}
}

func TestResultJSON(t *testing.T) {
	r := Result{Value: int64(3), Truncated: true, Accounting: Accounting{BytesInspected: 1, ItemsInspected: 2, BytesReturned: 3, ElapsedMS: 4, Elapsed: 5}}
	b, _ := json.Marshal(r)
	want := `{"value":3,"truncated":true,"accounting":{"bytes_inspected":1,"items_inspected":2,"bytes_returned":3,"elapsed_ms":4}}`
	if string(b) != want {
		t.Fatalf("JSON = %s\nwant   %s", b, want)
	}
	var l Limits
	if err := json.Unmarshal([]byte(`{"max_results":5,"max_bytes":6,"time_limit_ms":7}`), &l); err != nil {
		t.Fatal(err)
	}
	if l.MaxResults != 5 || l.MaxBytes != 6 || l.TimeLimit.Milliseconds() != 7 {
		t.Fatalf("Limits = %+v", l)
	}
	b, _ = json.Marshal(l)
	if string(b) != `{"max_results":5,"max_bytes":6,"time_limit_ms":7}` {
		t.Fatalf("Limits JSON = %s", b)
	}
}
