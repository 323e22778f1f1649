package tool

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

type sfInner struct {
	Tag string `json:"tag"`
}

type sfEmbedded struct {
	Depth int `json:"depth"`
}

// The unexported field of sfArgs must not appear in its schema; this
// read keeps it declared.
var _ = sfArgs{}.internal

type sfArgs struct {
	sfEmbedded
	Path     string            `json:"path"`
	Count    uint8             `json:"count,omitempty"`
	Ratio    float64           `json:"ratio,omitzero"`
	Flag     *bool             `json:"flag"`
	Tags     []string          `json:"tags,omitempty"`
	Inner    sfInner           `json:"inner"`
	Opt      *sfInner          `json:"opt,omitempty"`
	Meta     map[string]int    `json:"meta,omitempty"`
	ByID     map[int]string    `json:"by_id,omitempty"`
	Blob     []byte            `json:"blob,omitempty"`
	Pair     [2]int            `json:"pair"`
	Any      any               `json:"any,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	When     time.Time         `json:"when"`
	Num      int64             `json:"num,string"`
	Ignored  string            `json:"-"`
	NoTag    bool              //nolint:unused // exported, untagged: named by the Go field
	Nested   map[string][]bool `json:"nested,omitempty"`
	internal int
}

func TestSchemaForCompilesAndValidates(t *testing.T) {
	raw, err := SchemaFor[sfArgs]()
	if err != nil {
		t.Fatal(err)
	}
	sch, _, err := compileSchema("sf", "arguments", raw)
	if err != nil {
		t.Fatalf("derived schema does not compile: %v\n%s", err, raw)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc["properties"].(map[string]any)
	for _, absent := range []string{"Ignored", "internal", "sfEmbedded"} {
		if _, ok := props[absent]; ok {
			t.Errorf("property %q must not appear", absent)
		}
	}
	for _, present := range []string{"depth", "path", "NoTag", "num"} {
		if _, ok := props[present]; !ok {
			t.Errorf("property %q missing", present)
		}
	}
	req, _ := json.Marshal(doc["required"])
	if got, want := string(req), `["NoTag","depth","flag","inner","num","pair","path","when"]`; got != want {
		t.Errorf("required = %s, want %s", got, want)
	}

	// Every value encoding/json produces for the type validates, the zero
	// value included (nil pointers, slices and maps).
	flag := true
	full := sfArgs{sfEmbedded: sfEmbedded{Depth: 3}, Path: "a/b", Count: 7, Ratio: 0.5, Flag: &flag, Tags: []string{"x"},
		Inner: sfInner{Tag: "t"}, Opt: &sfInner{}, Meta: map[string]int{"k": 1}, ByID: map[int]string{-4: "v"},
		Blob: []byte{1, 2}, Pair: [2]int{1, 2}, Any: []any{1, "x"}, Raw: json.RawMessage(`{"z":null}`),
		When: time.Unix(0, 0).UTC(), Num: 42, Nested: map[string][]bool{"n": nil}}
	for name, v := range map[string]sfArgs{"zero": {}, "full": full} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		if err := json.Unmarshal(b, &inst); err != nil {
			t.Fatal(err)
		}
		if err := sch.ValidateValue(inst); err != nil {
			t.Errorf("%s value %s does not validate: %v", name, b, err)
		}
	}

	// And the schema is closed and typed.
	bad := map[string]string{
		"unknown property": `{"depth":1,"path":"p","flag":null,"inner":{"tag":""},"pair":[1,2],"when":"2020-01-01T00:00:00Z","num":"1","NoTag":false,"extra":1}`,
		"missing required": `{"depth":1,"flag":null,"inner":{"tag":""},"pair":[1,2],"when":"2020-01-01T00:00:00Z","num":"1","NoTag":false}`,
		"negative uint":    `{"depth":1,"path":"p","count":-1,"flag":null,"inner":{"tag":""},"pair":[1,2],"when":"2020-01-01T00:00:00Z","num":"1","NoTag":false}`,
		"short array":      `{"depth":1,"path":"p","flag":null,"inner":{"tag":""},"pair":[1],"when":"2020-01-01T00:00:00Z","num":"1","NoTag":false}`,
		",string as num":   `{"depth":1,"path":"p","flag":null,"inner":{"tag":""},"pair":[1,2],"when":"2020-01-01T00:00:00Z","num":1,"NoTag":false}`,
		"non-integer key":  `{"depth":1,"path":"p","flag":null,"inner":{"tag":""},"pair":[1,2],"when":"2020-01-01T00:00:00Z","num":"1","NoTag":false,"by_id":{"x":"v"}}`,
		"inner closed":     `{"depth":1,"path":"p","flag":null,"inner":{"tag":"","x":1},"pair":[1,2],"when":"2020-01-01T00:00:00Z","num":"1","NoTag":false}`,
	}
	for name, js := range bad {
		var inst any
		if err := json.Unmarshal([]byte(js), &inst); err != nil {
			t.Fatal(name, err)
		}
		if err := sch.ValidateValue(inst); err == nil {
			t.Errorf("%s: %s validated", name, js)
		}
	}
}

type sfRec struct {
	Next *sfRec `json:"next"`
}

type sfMarshaler struct{}

func (sfMarshaler) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

type sfAmbA struct{ X int }
type sfAmbB struct{ X string }
type sfAmbiguous struct {
	sfAmbA
	sfAmbB
}

// An outer field shadows a promoted one, as in encoding/json.
type sfShadow struct {
	sfAmbA
	X string
}

func TestSchemaForRefusesUnderivableTypes(t *testing.T) {
	cases := map[string]func() (json.RawMessage, error){
		"channel":     SchemaFor[struct{ C chan int }],
		"func":        SchemaFor[func()],
		"complex":     SchemaFor[complex128],
		"recursive":   SchemaFor[sfRec],
		"marshaler":   SchemaFor[struct{ M sfMarshaler }],
		"map key":     SchemaFor[map[bool]int],
		"ambiguous":   SchemaFor[sfAmbiguous],
		"nested chan": SchemaFor[[]map[string]chan int],
	}
	for name, fn := range cases {
		_, err := fn()
		if fault.KindOf(err) != KindInvalidSchema {
			t.Errorf("%s: err = %v, want Kind %s", name, err, KindInvalidSchema)
		}
	}
	raw, err := SchemaFor[sfShadow]()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(raw), `{"additionalProperties":false,"properties":{"X":{"type":"string"}},"required":["X"],"type":"object"}`; got != want {
		t.Errorf("shadowed schema = %s, want %s", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustSchemaFor did not panic on an underivable type")
		}
	}()
	MustSchemaFor[chan int]()
}

// A tool declared with derived schemas runs through the full pipeline, and
// the derived argument schema rejects what the Go type would not accept.
func TestSchemaForRegistersAndInvokes(t *testing.T) {
	type in struct {
		Query string `json:"query"`
		Limit int    `json:"limit,omitempty"`
	}
	type out struct {
		Echo  string `json:"echo"`
		Limit int    `json:"limit"`
	}
	reg := NewRegistry()
	mustRegister(t, reg, Spec{
		Name: "echo", Effect: authority.EffectRead,
		Args: MustSchemaFor[in](), Result: MustSchemaFor[out](),
		Handler: func(ctx context.Context, req Request) (any, error) {
			var a in
			if err := json.Unmarshal(req.Args, &a); err != nil {
				return nil, err
			}
			return out{Echo: a.Query, Limit: a.Limit}, nil
		},
	})
	rt := NewRuntime(reg, Config{})
	inv := Invocation{Capabilities: capability.Of(capability.Tool("echo"))}
	res, err := rt.Invoke(context.Background(), Call{Name: "echo", Args: json.RawMessage(`{"query":"q","limit":2}`), Invocation: inv})
	if err != nil || res.Status != StatusOK || string(res.Value) != `{"echo":"q","limit":2}` {
		t.Fatalf("invoke = %+v, %v", res, err)
	}
	res, err = rt.Invoke(context.Background(), Call{Name: "echo", Args: json.RawMessage(`{"limit":"2"}`), Invocation: inv})
	if err != nil || res.Error == nil || res.Error.Kind != KindSchemaValidation {
		t.Fatalf("invalid args = %+v, %v; want %s", res, err, KindSchemaValidation)
	}
}
