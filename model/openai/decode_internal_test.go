package openai

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// completionCorpus is what servers send and what they could: each entry
// is named, and fast says whether DecodeCompletion's fast path must read
// it itself (the common shapes), rather than leave it to encoding/json.
var completionCorpus = []struct {
	name string
	fast bool
	body string
}{
	{"openai", true, `{"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion","created":1741569952,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":"Hello! How can I assist you today?","refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},"service_tier":"default","system_fingerprint":"fp_fc9f1d7035"}`},
	{"openai pretty", true, "{\n  \"id\": \"chatcmpl-123\",\n  \"object\": \"chat.completion\",\n  \"created\": 1677652288,\n  \"model\": \"gpt-4o-mini\",\n  \"system_fingerprint\": \"fp_44709d6fcb\",\n  \"choices\": [{\n    \"index\": 0,\n    \"message\": {\n      \"role\": \"assistant\",\n      \"content\": \"\\n\\nHello there, how may I assist you today?\"\n    },\n    \"logprobs\": null,\n    \"finish_reason\": \"stop\"\n  }],\n  \"usage\": {\n    \"prompt_tokens\": 9,\n    \"completion_tokens\": 12,\n    \"total_tokens\": 21\n  }\n}\n"},
	{"openai tool calls", true, `{"id":"chatcmpl-abc","object":"chat.completion","created":1699896916,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_abc123","type":"function","function":{"name":"get_current_weather","arguments":"{\n\"location\": \"Boston, MA\"\n}"}},{"id":"call_def","type":"function","function":{"name":"lookup","arguments":"{}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":82,"completion_tokens":17,"total_tokens":99,"prompt_tokens_details":{"cached_tokens":64}}}`},
	{"openai refusal", true, `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I'm sorry, I can't help with that."},"finish_reason":"stop"}]}`},
	{"openrouter", true, "\n         \n\n         \n" + `{"id":"gen-1741620000-abcdef","provider":"Anthropic","model":"anthropic/claude-3.7-sonnet","object":"chat.completion","created":1741620000,"choices":[{"logprobs":null,"finish_reason":"stop","native_finish_reason":"stop","index":0,"message":{"role":"assistant","content":"The answer is 42.","refusal":null,"reasoning":"Let me think step by step.\nFirst, the question.","reasoning_details":[{"type":"reasoning.text","text":"Let me think","signature":"abc","format":"anthropic-claude-v1","index":0}]}}],"usage":{"prompt_tokens":120,"completion_tokens":45,"total_tokens":165,"cost":0.000915,"is_byok":false,"prompt_tokens_details":{"cached_tokens":0,"cache_write_tokens":100,"audio_tokens":0},"cost_details":{"upstream_inference_cost":null,"upstream_inference_prompt_cost":0.00036,"upstream_inference_completions_cost":0.000555},"completion_tokens_details":{"reasoning_tokens":30,"image_tokens":0}}}`},
	{"openrouter zero cost", true, `{"id":"gen-1","provider":"Chutes","model":"deepseek/deepseek-chat-v3-0324:free","object":"chat.completion","created":1741620001,"choices":[{"logprobs":null,"finish_reason":"stop","native_finish_reason":"stop","index":0,"message":{"role":"assistant","content":"ok","refusal":null,"reasoning":null}}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4,"cost":0,"is_byok":false}}`},
	{"openrouter exponent cost", true, `{"id":"gen-2","model":"m","object":"chat.completion","created":1,"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4,"cost":1.5e-7}}`},
	{"vllm", true, `{"id":"chatcmpl-9c1ebd0e2f1a4d6c","object":"chat.completion","created":1730000000,"model":"Qwen/Qwen2.5-7B-Instruct","choices":[{"index":0,"message":{"role":"assistant","reasoning_content":null,"content":"Sure.","tool_calls":[]},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"usage":{"prompt_tokens":25,"total_tokens":32,"completion_tokens":7,"prompt_tokens_details":null},"prompt_logprobs":null,"kv_transfer_params":null}`},
	{"vllm reasoning", true, `{"id":"chatcmpl-1","object":"chat.completion","created":1730000001,"model":"Qwen/QwQ-32B","choices":[{"index":0,"message":{"role":"assistant","reasoning":"think","reasoning_content":"think","content":"done","tool_calls":[{"id":"chatcmpl-tool-1","type":"function","function":{"name":"f","arguments":"{\"x\": 1}"}}]},"logprobs":null,"finish_reason":"tool_calls","stop_reason":null}],"usage":{"prompt_tokens":5,"total_tokens":9,"completion_tokens":4}}`},
	{"llama.cpp", true, `{"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","reasoning_content":"The user asks for the capital of France.","content":"Paris."}}],"created":1741000000,"model":"gpt-3.5-turbo","system_fingerprint":"b4800-1a24c462","object":"chat.completion","usage":{"completion_tokens":12,"prompt_tokens":20,"total_tokens":32},"id":"chatcmpl-xyz","timings":{"prompt_n":20,"prompt_ms":12.5,"prompt_per_token_ms":0.625,"prompt_per_second":1600.0,"predicted_n":12,"predicted_ms":80.1,"predicted_per_token_ms":6.675,"predicted_per_second":149.81273408239701}}`},
	{"deepseek", true, `{"id":"930c60df-bf64-41c9-a88e-3ec75f81e00e","object":"chat.completion","created":1705651092,"model":"deepseek-reasoner","choices":[{"index":0,"message":{"role":"assistant","content":"Hello! ` + "日本語 ✓" + `","reasoning_content":"思考中…"},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":16,"completion_tokens":10,"total_tokens":26,"prompt_tokens_details":{"cached_tokens":0},"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":16},"system_fingerprint":"fp_7e0991cad4_prod0225"}`},
	{"xai ticks", true, `{"id":"x","object":"chat.completion","created":1,"model":"grok-4","choices":[{"index":0,"message":{"role":"assistant","content":"hi","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6,"prompt_tokens_details":{"text_tokens":5,"audio_tokens":0,"image_tokens":0,"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0},"num_sources_used":0,"cost_in_usd_ticks":12345},"system_fingerprint":"fp_x"}`},
	{"azure function_call", true, `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{\"a\":1}"}},"finish_reason":"function_call","content_filter_results":{}}],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}],"id":"chatcmpl-a","object":"chat.completion","created":1,"model":"gpt-35-turbo"}`},
	{"gemini empty id", true, `{"choices":[{"finish_reason":"tool_calls","index":0,"message":{"role":"assistant","tool_calls":[{"function":{"arguments":"{\"q\":\"x\"}","name":"search"},"id":"","type":"function"}]}}],"created":1,"id":"abc","model":"gemini-2.5-flash","object":"chat.completion","usage":{"completion_tokens":5,"prompt_tokens":10,"total_tokens":15}}`},
	{"mistral thinking", true, `{"id":"x","object":"chat.completion","model":"magistral-medium","choices":[{"index":0,"message":{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Let me see."},{"type":"text","text":" More."}]},{"type":"text","text":"Answer."}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`},
	{"thinking string", true, `{"choices":[{"message":{"content":[{"type":"reasoning","text":"a","thinking":"b"},{"type":"text","text":"c","thinking":"ignored"},{"text":"d"},null]}}]}`},
	{"thinking nested", true, `{"choices":[{"message":{"content":[{"type":"thinking","text":"0","thinking":[{"text":"1","thinking":[{"text":"2","thinking":[{"text":"3","thinking":[{"text":"4","thinking":[{"text":"5"}]}]}]}]}]}]}}]}`},
	{"thinking past depth", true, `{"choices":[{"message":{"content":[{"type":"thinking","thinking":[{"thinking":[{"thinking":[{"thinking":[{"text":"4","thinking":[1,{"a":[true]}]}]}]}]}]}]}}]}`},
	{"thinking other values", true, `{"choices":[{"message":{"content":[{"type":"thinking","thinking":5},{"type":"thinking","thinking":{"text":"x"}},{"type":"thinking","thinking":null},{"type":"thinking","thinking":true}]}}]}`},
	{"images", true, `{"choices":[{"message":{"role":"user","content":[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA","detail":"low"}},{"type":"image_url","image_url":null},{"type":"image_url","text":"not text"},null]}}]}`},
	{"empty content array", true, `{"choices":[{"message":{"content":[]}}]}`},
	{"unicode escapes", true, `{"choices":[{"message":{"content":"\u00e9\ud83d\ude00 \ud800 \udc00x \ud800\u0041 \ud800\ud800\udc00 \"q\" \\ \/ \b\f\n\r\t \u0000 \uFFFD \uDBFF\uDFFF"}}],"id":"\u0069d"}`},
	{"lone surrogates", true, `{"choices":[{"message":{"content":"\ud83d","reasoning":"\ude00\ud83d","name":"\ud83d\n","refusal":"\ud83d\u00e9"}}]}`},
	{"invalid utf-8", true, "{\"choices\":[{\"message\":{\"content\":\"a\xffb\xfe\xed\xa0\x80c\xe2\x82\",\"reasoning\":\"\xc3\xa9\\n\xc3\",\"name\":\"\xf4\x90\x80\x80\"}}],\"junk\":\"\xff\"}"},
	{"odd whitespace", true, " \t\r\n{ \"choices\" :\r\n[ { \"message\" : { \"content\" : \"a\" , \"tool_calls\" : [ ] } , \"index\" :\t0 } ] ,\"usage\":{ } } \n\t\r "},
	{"nulls", true, `{"id":null,"object":null,"created":null,"model":null,"choices":[{"index":null,"message":null,"finish_reason":null},null,{"message":{"role":null,"content":null,"name":null,"reasoning":null,"reasoning_content":null,"refusal":null,"tool_calls":null,"tool_call_id":null,"function_call":null}},{"message":{"tool_calls":[null,{"id":null,"type":null,"function":null},{"function":{"name":null,"arguments":null}}]}}],"usage":null,"system_fingerprint":null}`},
	{"usage nulls", true, `{"choices":[{}],"usage":{"prompt_tokens":null,"completion_tokens":null,"total_tokens":null,"cost":null,"cost_in_usd_ticks":null,"prompt_tokens_details":null,"prompt_cache_hit_tokens":null}}`},
	{"details nulls", true, `{"choices":[{}],"usage":{"prompt_tokens_details":{"cached_tokens":null,"cache_write_tokens":null}}}`},
	{"negative and zero", true, `{"created":-1,"choices":[{"index":-0}],"usage":{"prompt_tokens":-5,"cost":-0,"cost_in_usd_ticks":-3}}`},
	{"18 digits", true, `{"created":999999999999999999,"choices":[{"index":-999999999999999999}]}`},
	{"unknown everything", true, `{"choices":[{"x":[1,-2.5e+3,0.0,1E9,true,false,null,"s\u1234",{"a":{"b":[[[]]]}},[],{}],"message":{"extra":{"deep":[{"k":"v"}]}}}],"":1,"IDX":2}`},
	{"tool call function null", true, `{"choices":[{"message":{"tool_calls":[{"id":"a","function":null}]}}]}`},

	// Left to encoding/json, which reads them or refuses them.
	{"case-changed keys", false, `{"ID":"x","Choices":[{"Message":{"Content":"a","ROLE":"assistant"},"Index":1}],"Usage":{"Prompt_Tokens":3}}`},
	{"case-changed inner key", false, `{"choices":[{"message":{"Tool_Calls":[{"ID":"c","Function":{"NAME":"f"}}]}}]}`},
	{"kelvin sign key", false, "{\"choices\":[{}],\"usage\":{\"prompt_to\u212aens\":7}}"},
	{"long s key", false, "{\"choices\":[{\"me\u017f\u017fage\":{\"content\":\"x\"}}]}"},
	{"escaped key", false, `{"choices":[{"message":{"c\u006fntent":"x"}}]}`},
	{"escaped unknown key", false, `{"choices":[{"message":{"x\u0041":"x"}}]}`},
	{"duplicate choices", false, `{"choices":[{"message":{"content":"a","role":"x"}},{"index":1}],"choices":[{"message":{"content":"b"}}]}`},
	{"duplicate message", false, `{"choices":[{"message":{"content":"a"},"message":{"role":"r"}}]}`},
	{"duplicate string", false, `{"id":"a","id":"b","choices":[{}]}`},
	{"duplicate usage", false, `{"choices":[{}],"usage":{"prompt_tokens":1},"usage":{"completion_tokens":2}}`},
	{"duplicate tool calls", false, `{"choices":[{"message":{"tool_calls":[{"id":"a","type":"t"}],"tool_calls":[{"id":"b"}]}}]}`},
	{"duplicate part key", false, `{"choices":[{"message":{"content":[{"type":"text","text":"a","text":"b"}]}}]}`},
	{"duplicate unknown key", true, `{"x":1,"x":2,"choices":[{}]}`},
	{"error key", true, `{"choices":[{}],"error":{"message":"overloaded","code":502}}`},
	{"error key string", true, `{"choices":[{}],"ERROR":"overloaded"}`},
	{"error key null", true, `{"choices":[{}],"Error":null}`},
	{"error key number", true, `{"choices":[{}],"error":5}`},
	{"object error", true, `{"object":"error","message":"bad","choices":[{}]}`},
	{"object error message number", true, `{"object":"error","message":5,"choices":[{}]}`},
	{"error in text", true, `{"choices":[{"message":{"content":"ValueError: é","role":"assistant"}}],"errors":[]}`},
	{"inner error key", true, `{"choices":[{"error":{"message":"x"},"message":{"content":"a"}}]}`},
	{"big created", false, `{"created":99999999999999999999,"choices":[{}]}`},
	{"max int64", false, `{"created":9223372036854775807,"choices":[{"index":-9223372036854775808}]}`},
	{"float in int", false, `{"choices":[{}],"usage":{"prompt_tokens":10.0}}`},
	{"exponent in int", false, `{"created":1e9,"choices":[{}]}`},
	{"float index", false, `{"choices":[{"index":0.5}]}`},
	{"cost out of range", false, `{"choices":[{}],"usage":{"cost":1e400}}`},
	{"cost tiny", true, `{"choices":[{}],"usage":{"cost":1e-400}}`},
	{"cost string", false, `{"choices":[{}],"usage":{"cost":"0.1"}}`},
	{"ticks float", false, `{"choices":[{}],"usage":{"cost_in_usd_ticks":1.5}}`},
	{"string created", false, `{"created":"1","choices":[{}]}`},
	{"number content", false, `{"choices":[{"message":{"content":5}}]}`},
	{"object content", false, `{"choices":[{"message":{"content":{"text":"a"}}}]}`},
	{"object arguments", false, `{"choices":[{"message":{"tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}]}}]}`},
	{"part text number", false, `{"choices":[{"message":{"content":[{"type":"text","text":1}]}}]}`},
	{"part not object", false, `{"choices":[{"message":{"content":["a"]}}]}`},
	{"thinking array refused", false, `{"choices":[{"message":{"content":[{"type":"thinking","text":"kept","thinking":[1,2]}]}}]}`},
	{"image_url string", false, `{"choices":[{"message":{"content":[{"type":"image_url","image_url":"data:x"}]}}]}`},
	{"bool role", false, `{"choices":[{"message":{"role":true}}]}`},
	{"choices object", false, `{"choices":{"0":{}}}`},
	{"choice string", false, `{"choices":["a"]}`},
	{"no choices", false, `{"choices":[]}`},
	{"null choices", false, `{"choices":null}`},
	{"absent choices", false, `{"id":"x"}`},
	{"empty", false, ``},
	{"spaces only", false, "  \n"},
	{"array", false, `[]`},
	{"null", false, `null`},
	{"string", false, `"x"`},
	{"trailing object", false, `{"choices":[{}]}{}`},
	{"trailing brace", false, `{"choices":[{}]} }`},
	{"trailing bracket", false, `{"choices":[{}]}]`},
	{"trailing junk", false, `{"choices":[{}]} x`},
	{"bom", false, "\ufeff{\"choices\":[{}]}"},
	{"trailing comma", false, `{"choices":[{}],}`},
	{"trailing comma array", false, `{"choices":[{},]}`},
	{"single quote escape", false, `{"choices":[{"message":{"content":"\'"}}]}`},
	{"bad escape", false, `{"choices":[{"message":{"content":"\x"}}]}`},
	{"short unicode escape", false, `{"choices":[{"message":{"content":"\u12"}}]}`},
	{"control character", false, "{\"choices\":[{\"message\":{\"content\":\"a\tb\"}}]}"},
	{"leading zero", false, `{"created":01,"choices":[{}]}`},
	{"leading zero unknown", false, `{"x":01,"choices":[{}]}`},
	{"plus number", false, `{"x":+1,"choices":[{}]}`},
	{"bare dot", false, `{"x":1.,"choices":[{}]}`},
	{"bad literal", false, `{"x":nul,"choices":[{}]}`},
	{"literal run-on", false, `{"x":nullx,"choices":[{}]}`},
	{"unclosed", false, `{"choices":[{}]`},
	{"unclosed string", false, `{"choices":[{}],"id":"abc`},
	{"deep unknown", false, `{"choices":[{}],"x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`},
	{"too deep", false, `{"choices":[{}],"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`},
}

// checkSameAsJSON fails t when DecodeCompletion does not give what
// encoding/json gives for in, value and error, or when the fast path
// accepts in with another value or where encoding/json fails. It reports
// whether the fast path read in.
func checkSameAsJSON(t *testing.T, in []byte) bool {
	t.Helper()
	want, wantErr := decodeCompletionJSON(in)
	got, err := DecodeCompletion(in)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("DecodeCompletion(%q): error %v, encoding/json's %v", in, err, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeCompletion(%q)\n got %#v\nwant %#v", in, got, want)
	}
	// What the provider makes of a 2xx body: decodeBody against
	// ParseErrorBody, then DecodeCompletion.
	bc, apiError, bodyErr := decodeBody(in)
	if _, isErr := ParseErrorBody(in); isErr {
		if !apiError || bc != nil || bodyErr != nil {
			t.Fatalf("decodeBody(%q) = %v, %v, %v; ParseErrorBody reads an error body", in, bc, apiError, bodyErr)
		}
	} else if apiError || (bodyErr == nil) != (wantErr == nil) || bodyErr != nil && bodyErr.Error() != wantErr.Error() || !reflect.DeepEqual(bc, want) {
		t.Fatalf("decodeBody(%q) = %#v, %v, %v; want %#v, %v", in, bc, apiError, bodyErr, want, wantErr)
	}
	fast, ok := decodeCompletionFast(in)
	if !ok {
		return false
	}
	if wantErr != nil {
		t.Fatalf("fast path read %q, which encoding/json refuses: %v", in, wantErr)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("fast path(%q)\n got %#v\nwant %#v", in, fast, want)
	}
	return true
}

var corpusKey = regexp.MustCompile(`"([a-z])([a-z_]*)"\s*:`)

// corpusVariants returns body and bodies derived from it: with spacing
// around every delimiter, with the first letter of every key in upper
// case, and (short ones) cut short at every byte.
func corpusVariants(body string) []string {
	spaced := spaceOut(body)
	upper := corpusKey.ReplaceAllStringFunc(body, strings.ToUpper)
	out := []string{body, spaced, upper}
	if len(body) > 4096 {
		return out
	}
	for i := range len(body) {
		out = append(out, body[:i])
	}
	return out
}

// spaceOut puts JSON white space around every delimiter of body outside
// its strings.
func spaceOut(body string) string {
	var sb strings.Builder
	in, esc := false, false
	for i := range len(body) {
		c := body[i]
		sb.WriteByte(c)
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && strings.IndexByte(",:{}[]", c) >= 0:
			sb.WriteString(" \r\n\t")
		}
	}
	return sb.String()
}

func TestDecodeCompletionMatchesJSON(t *testing.T) {
	for _, tc := range completionCorpus {
		t.Run(tc.name, func(t *testing.T) {
			if fast := checkSameAsJSON(t, []byte(tc.body)); fast != tc.fast {
				t.Errorf("fast path read it: %v, want %v", fast, tc.fast)
			}
			for _, v := range corpusVariants(tc.body) {
				checkSameAsJSON(t, []byte(v))
			}
		})
	}
}

// TestDecodeCompletionFastShapes checks that the common shapes are read
// by the fast path, spaced out or not: a fast path that always gave up
// would pass the differential test.
func TestDecodeCompletionFastShapes(t *testing.T) {
	n := 0
	for _, tc := range completionCorpus {
		if !tc.fast {
			continue
		}
		n++
		for _, body := range corpusVariants(tc.body)[:2] {
			if _, ok := decodeCompletionFast([]byte(body)); !ok {
				t.Errorf("%s: the fast path gave up on %q", tc.name, body)
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d common shapes", n)
	}
	// What a Provider decodes in the benchmarks and in every test server.
	for _, body := range benchCompletions {
		if _, ok := decodeCompletionFast(body.body); !ok {
			t.Errorf("%s: the fast path gave up", body.name)
		}
	}
}

func FuzzDecodeCompletionMatchesJSON(f *testing.F) {
	for _, tc := range completionCorpus {
		f.Add([]byte(tc.body))
	}
	// Values the fuzzer writes are also put where the decoder reads
	// fields, so that mutations reach them without first making a
	// whole completion.
	f.Add([]byte(`[{"type":"thinking","thinking":[{"text":"\ud83d\ude00"}]},null]`))
	f.Add([]byte(`{"prompt_tokens":1,"cost":1.5e-3,"prompt_tokens_details":{"cached_tokens":0}}`))
	f.Add([]byte(`\u00e9\ud800\n\"`))
	wrappers := [][2]string{
		{`{"choices":[{"message":{"content":`, `}}]}`},
		{`{"choices":[{"message":{"content":"`, `"}}]}`},
		{`{"choices":[{"index":0}],"usage":`, `}`},
		{`{"choices":[`, `]}`},
		{`{"choices":[{"message":{"tool_calls":[`, `]}}]}`},
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkSameAsJSON(t, in)
		for _, w := range wrappers {
			checkSameAsJSON(t, []byte(w[0]+string(in)+w[1]))
		}
	})
}

// benchCompletions are the bodies BenchmarkDecodeCompletion decodes.
var benchCompletions = []struct {
	name string
	body []byte
}{
	{"answer-300B", []byte(`{"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion","created":1741569952,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant","content":"label: routine","refusal":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29},"system_fingerprint":"fp_fc9f1d7035"}`)},
	{"openrouter-800B", []byte(completionCorpus[4].body)},
	{"tool-calls", []byte(completionCorpus[2].body)},
	{"code-2KB", []byte(`{"id":"chatcmpl-1","object":"chat.completion","created":1741569952,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"` +
		strings.Repeat(`lines = context.split(\"\\n\")\nfor i, line in enumerate(lines):\n    if \"needle\" in line:\n        print(i, line)\n`, 20) +
		`"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1900,"completion_tokens":500,"total_tokens":2400,"prompt_tokens_details":{"cached_tokens":1024}}}`)},
}

// BenchmarkDecodeCompletion decodes each body with encoding/json (what
// DecodeCompletion did before) and with DecodeCompletion, one after the
// other in one run.
func BenchmarkDecodeCompletion(b *testing.B) {
	for _, bc := range benchCompletions {
		b.Run(bc.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.body)))
			for b.Loop() {
				if _, err := decodeCompletionJSON(bc.body); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/DecodeCompletion", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.body)))
			for b.Loop() {
				if _, err := DecodeCompletion(bc.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeBody reads 2xx bodies as the provider did before
// (ParseErrorBody, then encoding/json) and as it does now (decodeBody).
// The second body's text mentions an error, so ParseErrorBody's shortcut
// (mayHoldError) does not spare it the whole parse.
func BenchmarkDecodeBody(b *testing.B) {
	bodies := []struct {
		name string
		body []byte
	}{
		benchCompletions[0],
		{"error-in-text", []byte(`{"id":"chatcmpl-1","object":"chat.completion","created":1741569952,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"try:\n    n = int(s)\nexcept ValueError:\n    n = 0\nprint(n)"},"finish_reason":"stop"}],"usage":{"prompt_tokens":190,"completion_tokens":50,"total_tokens":240}}`)},
	}
	for _, bc := range bodies {
		b.Run(bc.name+"/before", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, isErr := ParseErrorBody(bc.body); isErr {
					b.Fatal("error body")
				}
				if _, err := decodeCompletionJSON(bc.body); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/decodeBody", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, isErr, err := decodeBody(bc.body); isErr || err != nil {
					b.Fatal(isErr, err)
				}
			}
		})
	}
}

// The fast decoder's field lists are the json names of the types it
// decodes: a field added to one of them (and to encoding/json's reading)
// fails here until the fast decoder reads it too, rather than being
// skipped by it as an unknown key.
func TestFastNamesAreTheFields(t *testing.T) {
	for _, c := range []struct {
		typ   reflect.Type
		names []string
	}{
		{reflect.TypeFor[ChatCompletion](), completionNames},
		{reflect.TypeFor[Choice](), choiceNames},
		{reflect.TypeFor[Message](), messageNames},
		{reflect.TypeFor[ToolCall](), toolCallNames},
		{reflect.TypeFor[FunctionCall](), functionNames},
		{reflect.TypeFor[Usage](), usageNames},
		{reflect.TypeFor[TokenDetails](), detailsNames},
		{reflect.TypeFor[contentPart](), partNames},
		{reflect.TypeFor[ImageURL](), imageURLNames},
	} {
		var fields []string
		for f := range c.typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != "-" && f.IsExported() {
				fields = append(fields, name)
			}
		}
		if !slices.Equal(fields, c.names) {
			t.Errorf("%s: the fast decoder reads %q, the type has %q", c.typ, c.names, fields)
		}
	}
}
