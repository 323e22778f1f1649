package replay

import (
	"bufio"
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
)

// Fixture is one raw response body recorded from a real server, served
// back verbatim so a provider can be checked against what servers send.
// The shape comes from the file name:
//
//   - NAME.sse: a text/event-stream body, served as it is;
//   - NAME.chunks.txt: one chat.completion.chunk JSON per line (vercel/ai's
//     recording format), served as "data: LINE" events and "data: [DONE]";
//   - NAME.json: a whole JSON body, served with the HTTP status written in
//     the name ("_404", "_code400", "_200"; default 200).
type Fixture struct {
	Name   string
	Body   []byte
	Status int
	// Stream reports an event-stream fixture (the request asks to stream).
	Stream bool
}

// statusInName finds an HTTP status written in a fixture name.
var statusInName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|_)(?:code)?([1-5][0-9][0-9])(?:[_.]|$)`) })

// maxFixtureBytes bounds one fixture file.
const maxFixtureBytes = 16 << 20

// LoadFixtures reads every .sse, .chunks.txt and .json file of dir,
// sorted by name. Errors have Phase replay and Kind io_error.
func LoadFixtures(dir string) ([]Fixture, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseReplay, fault.KindIO, "cannot read the fixture folder").With("path", dir)
	}
	var out []Fixture
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".sse") || strings.HasSuffix(name, ".chunks.txt") || strings.HasSuffix(name, ".json")) {
			continue
		}
		info, err := e.Info()
		if err != nil || info.Size() > maxFixtureBytes {
			return nil, fault.New(fault.PhaseReplay, fault.KindIO, "fixture unreadable or too large").With("path", name).With("limit_bytes", maxFixtureBytes)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fault.Wrap(err, fault.PhaseReplay, fault.KindIO, "cannot read fixture").With("path", name)
		}
		out = append(out, NewFixture(name, b))
	}
	slices.SortFunc(out, func(a, b Fixture) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// NewFixture describes body as the fixture file name.
func NewFixture(name string, body []byte) Fixture {
	f := Fixture{Name: name, Body: body, Status: http.StatusOK}
	switch {
	case strings.HasSuffix(name, ".sse"):
		f.Stream = true
	case strings.HasSuffix(name, ".chunks.txt"):
		f.Stream = true
		var b bytes.Buffer
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, maxFixtureBytes)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line != "" {
				b.WriteString("data: " + line + "\n\n")
			}
		}
		b.WriteString("data: [DONE]\n\n")
		f.Body = b.Bytes()
	default:
		if m := statusInName().FindStringSubmatch(strings.TrimSuffix(name, ".json")); m != nil {
			f.Status, _ = strconv.Atoi(m[1])
		}
	}
	return f
}

// ServeHTTP answers every request with the fixture, after reading the
// request body.
func (f Fixture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = bytes.NewBuffer(nil).ReadFrom(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
	if f.Stream {
		w.Header().Set("Content-Type", "text/event-stream")
	} else {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.WriteHeader(f.Status)
	_, _ = w.Write(f.Body)
}
