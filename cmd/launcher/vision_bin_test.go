package launcher

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

// visionServer is a scripted OpenAI-compatible server: the root model
// answers with one cell sending the context's image to the sub-model,
// and the sub-model answers "revenue doubles" only when the request
// carries that image as an image_url data URL.
func visionServer(t *testing.T, want []byte) (*httptest.Server, *atomic.Int64) {
	sum := sha256.Sum256(want)
	var subCalls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		text := "```python\nFINAL(llm_query(\"What does the chart show?\", images=[load_image(\"chart.png\")]))\n```"
		if req.Model != "root-model" {
			subCalls.Add(1)
			text = "NO IMAGE"
			var parts []struct {
				Type     string `json:"type"`
				ImageURL struct {
					URL string `json:"url"`
				} `json:"image_url"`
			}
			last := req.Messages[len(req.Messages)-1]
			if json.Unmarshal(last.Content, &parts) == nil {
				for _, p := range parts {
					data, ok := strings.CutPrefix(p.ImageURL.URL, "data:image/png;base64,")
					raw, err := base64.StdEncoding.DecodeString(data)
					if p.Type == "image_url" && ok && err == nil && sha256.Sum256(raw) == sum {
						text = "revenue doubles"
					}
				}
			}
		}
		reply, _ := json.Marshal(text)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":50,"completion_tokens":5,"total_tokens":55}}`, req.Model, reply)
	}))
	t.Cleanup(srv.Close)
	return srv, &subCalls
}

// rlm run --context chart.png: the image is a context whose listing gives
// its metadata, code mode loads it and sends it to a vision sub-model;
// -vv names the image, the trace records its hash; an image over the
// pixel bound and a model without vision are typed errors, unsent.
func TestVisionThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	png := visiontest.Solid(vision.PNG, 120, 80, color.NRGBA{R: 200, A: 255})
	sum := sha256.Sum256(png)
	chart := filepath.Join(dir, "chart.png")
	huge := filepath.Join(dir, "huge.png")
	if err := os.WriteFile(chart, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(huge, visiontest.PNGHeader(10_000, 10_000), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, subCalls := visionServer(t, png)
	env := []string{"OPENAI_API_KEY=k", "RLM_BASE_URL=" + srv.URL}
	type out struct {
		Status string `json:"status"`
		Answer any    `json:"answer"`
		Error  *struct {
			Kind string `json:"kind"`
			Hint string `json:"hint"`
		} `json:"error"`
	}
	t.Run("vision sub-call", func(t *testing.T) {
		tr := filepath.Join(dir, "run.jsonl")
		r := runBinary(t, nil, env, "run", "--mode", "code", "--model", "root-model", "--sub-model", "vision-sub",
			"--context", chart, "--json", "-vv", "--trace", tr, "What does the chart show?")
		var o out
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &o) != nil || o.Answer != "revenue doubles" {
			t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		short := hex.EncodeToString(sum[:])[:12]
		if !strings.Contains(r.stderr, "images: sha256:"+short+" 120x80 image/png") {
			t.Errorf("-vv does not name the image:\n%s", r.stderr)
		}
		b, err := os.ReadFile(tr)
		if err != nil || !strings.Contains(string(b), "sha256:"+hex.EncodeToString(sum[:])+" 120x80 image/png") {
			t.Errorf("the trace does not record the image: %v", err)
		}
	})
	// -v names the images a sub-call sent; --trace-content keeps their
	// thumbnails on the model_call span, a plain trace only their names.
	for _, c := range []struct {
		name    string
		content bool
	}{{"-v with trace content", true}, {"-v", false}} {
		t.Run(c.name, func(t *testing.T) {
			tr := filepath.Join(t.TempDir(), "run.jsonl")
			args := []string{"run", "--mode", "code", "--model", "root-model", "--sub-model", "vision-sub",
				"--context", chart, "--json", "-v", "--trace", tr}
			if c.content {
				args = append(args, "--trace-content")
			}
			r := runBinary(t, nil, env, append(args, "What does the chart show?")...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			short := hex.EncodeToString(sum[:])[:12]
			if !strings.Contains(r.stderr, "── sub-call · depth 1 · vision-sub · images: sha256:"+short+" 120x80 image/png") {
				t.Errorf("-v does not name the image:\n%s", r.stderr)
			}
			b, err := os.ReadFile(tr)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(b), `"thumbnails":["data:image/`); got != c.content {
				t.Errorf("thumbnails in the trace: %v, want %v", got, c.content)
			}
		})
	}
	for _, c := range []struct {
		name, ctx, sub, kind string
	}{
		{"over the pixel bound", huge, "vision-sub", "image_too_large"},
		{"a model without vision", chart, "gpt-3.5-turbo", "no_vision"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := subCalls.Load()
			r := runBinary(t, nil, env, "run", "--mode", "code", "--model", "root-model", "--sub-model", c.sub,
				"--context", c.ctx, "--json", "What does the chart show?")
			if subCalls.Load() != before {
				t.Errorf("%d sub-calls reached the server", subCalls.Load()-before)
			}
			if c.kind == "no_vision" {
				// The cell's llm_query raised; the error is the
				// answer's observation, the run ends at its repair
				// limit or with the exception text: either way the
				// server saw no image request.
				if !strings.Contains(r.stdout+r.stderr, "no_vision") {
					t.Errorf("no no_vision in the output:\n%s\n%s", r.stdout, r.stderr)
				}
				return
			}
			var o out
			if r.code == 0 || json.Unmarshal([]byte(r.stdout), &o) != nil || o.Error == nil || o.Error.Kind != c.kind || o.Error.Hint == "" {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}
