package replay

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

func decodeErrorCode(t *testing.T, res *http.Response) string {
	t.Helper()
	var body struct {
		Error struct {
			Message, Type, Code string
		} `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("error body is not JSON: %v", err)
	}
	if body.Error.Message == "" || body.Error.Type == "" {
		t.Fatalf("error body %+v", body)
	}
	return body.Error.Code
}

// TestServeCassetteMemory is issue 18 item 7: a request body over
// MaxRequestBytes is refused with 413 without being buffered, and a request
// over MaxConcurrentRequests in flight with 503; both carry OpenAI-style
// JSON error bodies.
func TestServeCassetteMemory(t *testing.T) {
	h := NewHandler(&Cassette{})
	srv := httptest.NewServer(h)
	defer srv.Close()
	url := srv.URL + "/v1/chat/completions"

	t.Run("declared length over the cap", func(t *testing.T) {
		res, err := http.Post(url, "application/json", strings.NewReader(strings.Repeat(" ", MaxRequestBytes+1)))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge || decodeErrorCode(t, res) != RequestTooLargeCode {
			t.Fatalf("status %d", res.StatusCode)
		}
	})
	t.Run("chunked body over the cap", func(t *testing.T) {
		pr, pw := io.Pipe()
		go func() {
			chunk := []byte(strings.Repeat(" ", 1<<20))
			for range MaxRequestBytes/len(chunk) + 2 {
				if _, err := pw.Write(chunk); err != nil {
					return
				}
			}
			pw.Close()
		}()
		defer pr.Close()
		req, _ := http.NewRequest(http.MethodPost, url, pr) // unknown length: chunked
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge || decodeErrorCode(t, res) != RequestTooLargeCode {
			t.Fatalf("status %d", res.StatusCode)
		}
	})
	t.Run("concurrent requests over the cap", func(t *testing.T) {
		// MaxConcurrentRequests requests hold their slot while their
		// bodies are still being sent.
		var writers []*io.PipeWriter
		done := make(chan int, MaxConcurrentRequests)
		for range MaxConcurrentRequests {
			pr, pw := io.Pipe()
			writers = append(writers, pw)
			req, _ := http.NewRequest(http.MethodPost, url, pr)
			go func() {
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					done <- -1
					return
				}
				res.Body.Close()
				done <- res.StatusCode
			}()
			if _, err := pw.Write([]byte("{")); err != nil {
				t.Fatal(err)
			}
		}
		for h.inFlight.Load() < MaxConcurrentRequests {
			runtime.Gosched()
		}
		res, err := http.Post(url, "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || decodeErrorCode(t, res) != BusyCode {
			t.Fatalf("status %d", res.StatusCode)
		}
		res.Body.Close()
		for _, pw := range writers {
			pw.Write([]byte(`"model":"m","messages":[{"role":"user","content":"x"}]}`))
			pw.Close()
		}
		for range MaxConcurrentRequests {
			if code := <-done; code != ExhaustedStatus {
				t.Fatalf("held request answered %d", code)
			}
		}
		// The slots are free again.
		res, err = http.Post(url, "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != ExhaustedStatus {
			t.Fatalf("status %d after the burst", res.StatusCode)
		}
	})
	http.DefaultClient.CloseIdleConnections()
}
