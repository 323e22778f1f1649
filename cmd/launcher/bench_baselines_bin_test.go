package launcher

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/bench"
)

// needleServer is an OpenAI-compatible server that finds the needle of a
// generated niah task ("... is: 1234567.") the way each method asks: code
// that finds it for code mode, notes for the summary method's parts
// ("found: N", else the notes it was given), the value for a call that
// holds it (the direct request, the summary's answer from its notes).
// notes counts the summary's note-taking calls.
func needleServer(notes *atomic.Int64) *httptest.Server {
	needle := regexp.MustCompile(`is: (\d{7})\.`)
	found := regexp.MustCompile(`found: (\d{7})`)
	kept := regexp.MustCompile(`(?s)Your notes so far:\n(.*?)\n\nPart \d+ \(bytes`)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		var all strings.Builder
		for _, m := range req.Messages {
			all.WriteString(m.Content)
		}
		text, sys := "unknown", req.Messages[0].Content
		switch {
		case strings.Contains(sys, "Python 3.12 REPL") && strings.Contains(sys, "in full in the first user message"):
			// The codeact methods: the context is in the message.
			value := "none"
			if m := needle.FindStringSubmatch(req.Messages[1].Content); m != nil {
				value = m[1]
			}
			text = "```python\nFINAL(\"" + value + "\")\n```"
		case strings.Contains(sys, "Python 3.12 REPL"):
			text = "```python\nimport re\nFINAL(re.search(r\"is: (\\d{7})\\.\", context).group(1))\n```"
		case strings.Contains(sys, "writing JSON plans"):
			// Plan mode: search, then answer from the observation.
			text = `{"steps": [{"op": "context", "handle": {"ref": "input", "name": "context"}, "action": {"type": "search", "pattern": "is: [0-9]{7}[.]", "regex": true}, "bind": "hits"}]}`
			if m := needle.FindStringSubmatch(all.String()[len(sys):]); m != nil {
				text = `{"answer": "` + m[1] + `"}`
			}
		case strings.HasPrefix(sys, bench.SummaryChunkPrompt[:60]):
			notes.Add(1)
			user := req.Messages[len(req.Messages)-1].Content
			if m := needle.FindStringSubmatch(user[strings.Index(user, "<<<"):]); m != nil {
				text = "found: " + m[1]
			} else if m := kept.FindStringSubmatch(user); m != nil {
				text = m[1]
			}
		default:
			if m := needle.FindStringSubmatch(all.String()); m != nil {
				text = m[1]
			} else if m := found.FindStringSubmatch(all.String()); m != nil {
				text = m[1]
			}
		}
		w.Header().Set("Content-Type", "application/json")
		content, _ := json.Marshal(text)
		io.WriteString(w, `{"id":"c","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":`+
			string(content)+`},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}}`)
	}))
}

// rlm bench run runs every method. With a 40 KB context that does not
// fit the root model's 8,000-token window, the summary method has the
// sub-model (2,000 tokens) read it in parts and answers from its notes,
// rlm-no-subcalls answers from code over the context in the REPL, and
// codeact and codeact-subcalls, which put the context in the root
// prompt, fail with prompt_too_large before any call; with a 2 KB
// context every method answers.
func TestBenchBaselinesBinary(t *testing.T) {
	t.Parallel()
	var notes atomic.Int64
	srv := needleServer(&notes)
	defer srv.Close()
	type report struct {
		Summaries []struct {
			Method   string   `json:"method"`
			OK       int      `json:"ok"`
			Failed   int      `json:"failed"`
			Accuracy *float64 `json:"accuracy"`
		} `json:"summaries"`
		Trials []struct {
			Method string `json:"method"`
			Error  *struct {
				Kind string `json:"kind"`
			} `json:"error"`
		} `json:"trials"`
	}
	for _, c := range []struct {
		size, methods string
		windows       []string
		ok            map[string]bool // methods that answer; the others fail with prompt_too_large
	}{
		{"40k", "summary,rlm-no-subcalls,codeact,codeact-subcalls", []string{"--model-window", "gpt-4o=8000", "--model-window", "gpt-4o-mini=2000"},
			map[string]bool{"summary": true, "rlm-no-subcalls": true}},
		{"2k", "rlm,rlm-code,direct,auto,summary,rlm-no-subcalls,codeact,codeact-subcalls", nil,
			map[string]bool{"rlm": true, "rlm-code": true, "direct": true, "auto": true, "summary": true, "rlm-no-subcalls": true, "codeact": true, "codeact-subcalls": true}},
	} {
		t.Run(c.size, func(t *testing.T) {
			args := append([]string{"bench", "run", "--task", "niah", "--size", c.size, "--runs", "2", "--methods", c.methods,
				"--model", "gpt-4o", "--sub-model", "gpt-4o-mini", "--no-cache", "--json"}, c.windows...)
			res := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1"), args...)
			var rep report
			if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil || res.code != 0 {
				t.Fatalf("exit %d, %v: %s %s", res.code, err, res.stdout, res.stderr)
			}
			methods := strings.Split(c.methods, ",")
			if len(rep.Summaries) != len(methods) {
				t.Fatalf("summaries %+v", rep.Summaries)
			}
			for i, s := range rep.Summaries {
				if s.Method != methods[i] {
					t.Fatalf("summary %d is %s, want %s", i, s.Method, methods[i])
				}
				if c.ok[s.Method] && (s.OK != 2 || s.Accuracy == nil || *s.Accuracy != 1) {
					t.Fatalf("%s: ok %d, accuracy %v; want 2 and 1: %s", s.Method, s.OK, s.Accuracy, res.stdout)
				}
				if !c.ok[s.Method] && s.Failed != 2 {
					t.Fatalf("%s: %d failed, want 2: %s", s.Method, s.Failed, res.stdout)
				}
			}
			for _, tr := range rep.Trials {
				if !c.ok[tr.Method] && (tr.Error == nil || tr.Error.Kind != "prompt_too_large") {
					t.Fatalf("%s: error %+v, want prompt_too_large", tr.Method, tr.Error)
				}
			}
		})
	}
	if n := notes.Load(); n < 10 {
		t.Fatalf("%d note-taking calls for two 40 KB contexts in a 2,000-token window", n)
	}
	// An unknown method is a configuration error before any trial.
	res := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1"),
		"bench", "run", "--task", "niah", "--size", "2k", "--methods", "summary,codeact-bm25", "--no-cache", "--json")
	if res.code != 1 || !strings.Contains(res.stdout+res.stderr, "invalid_task") {
		t.Fatalf("unknown method: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
}
