package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

type funcIn struct {
	Word  string `json:"word" jsonschema:"minLength=1,maxLength=8"`
	Times int    `json:"times" jsonschema:"minimum=1,maximum=3"`
	Mode  string `json:"mode,omitempty" jsonschema:"enum=upper|lower"`
}

type funcOut struct {
	Text string `json:"text"`
}

func TestFunc(t *testing.T) {
	reg := NewRegistry()
	var seen Request
	spec := Func("repeat", "repeat a word", func(ctx context.Context, in funcIn) (funcOut, error) {
		seen, _ = RequestOf(ctx)
		s := strings.Repeat(in.Word, in.Times)
		if in.Mode == "upper" {
			s = strings.ToUpper(s)
		}
		return funcOut{Text: s}, nil
	})
	mustRegister(t, reg, spec)
	sc, _ := reg.Lookup("repeat")
	want := `{"additionalProperties":false,"properties":{"mode":{"enum":["upper","lower"],"type":"string"},"times":{"maximum":3,"minimum":1,"type":"integer"},"word":{"maxLength":8,"minLength":1,"type":"string"}},"required":["times","word"],"type":"object"}`
	if string(sc.Arguments) != want || sc.Effect != authority.EffectRead {
		t.Fatalf("arguments %s effect %s", sc.Arguments, sc.Effect)
	}
	rt := NewRuntime(reg, Config{})
	inv := Invocation{Capabilities: capability.MustSet("tool:repeat")}
	res, err := rt.Invoke(context.Background(), Call{Name: "repeat", Args: json.RawMessage(`{"word":"ab","times":2,"mode":"upper"}`), Invocation: inv})
	if err != nil || res.Status != StatusOK || string(res.Value) != `{"text":"ABAB"}` || seen.Tool != "repeat" {
		t.Fatalf("%v %+v %+v", err, res, seen)
	}
	for _, bad := range []string{`{"word":"","times":1}`, `{"word":"a","times":4}`, `{"word":"a","times":1,"mode":"x"}`} {
		res, _ := rt.Invoke(context.Background(), Call{Name: "repeat", Args: json.RawMessage(bad), Invocation: inv})
		if fault.KindOf(res.Error) != KindSchemaValidation {
			t.Fatalf("%s: %+v", bad, res)
		}
	}
}

func TestFuncUnderivableType(t *testing.T) {
	spec := Func("chan", "", func(ctx context.Context, in struct{ C chan int }) (funcOut, error) { return funcOut{}, nil })
	if err := NewRegistry().Register(spec); fault.KindOf(err) != KindInvalidSchema {
		t.Fatalf("register: %v", err)
	}
	bad := Func("tag", "", func(ctx context.Context, in struct {
		S string `json:"s" jsonschema:"pattern=x"`
	}) (funcOut, error) {
		return funcOut{}, nil
	})
	if err := NewRegistry().Register(bad); fault.KindOf(err) != KindInvalidSchema {
		t.Fatalf("unknown tag keyword: %v", err)
	}
}
