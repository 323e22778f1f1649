package mcp

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

func TestToolName(t *testing.T) {
	long := strings.Repeat("a", 80)
	for _, c := range []struct{ server, tool, want string }{
		{"fs", "read_file", "mcp.fs.read_file"},
		{"everything", "get-tiny-image", "mcp.everything.get-tiny-image"},
		{"gh", "repo.create", "mcp.gh.repo_create_" + hash8("repo.create")},
		{"gh", "repo create", "mcp.gh.repo_create_" + hash8("repo create")},
		{"x", "héllo", "mcp.x.h__llo_" + hash8("héllo")},
		{"x", long, "mcp.x." + long[:64-len("mcp.x.")-9] + "_" + hash8(long)},
	} {
		got := ToolName(c.server, c.tool)
		if got != c.want || !tool.ValidName(got) {
			t.Errorf("ToolName(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
		if ServerOf(got) != c.server {
			t.Errorf("ServerOf(%q) = %q", got, ServerOf(got))
		}
	}
	if ToolName("gh", "repo.create") == ToolName("gh", "repo create") {
		t.Error("distinct originals must map to distinct names")
	}
	for _, bad := range []string{"", "a.b", "with space", strings.Repeat("s", 25)} {
		if ValidServerName(bad) {
			t.Errorf("server name %q accepted", bad)
		}
	}
}

func hash8(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

func FuzzToolName(f *testing.F) {
	for _, s := range []string{"read_file", "a.b", "", "ü", strings.Repeat("z", 100)} {
		f.Add("srv", s)
	}
	f.Fuzz(func(t *testing.T, server, name string) {
		if !ValidServerName(server) {
			return
		}
		got := ToolName(server, name)
		if !tool.ValidName(got) || ServerOf(got) != server || !strings.HasPrefix(got, NamePrefix+server+".") {
			t.Fatalf("ToolName(%q, %q) = %q", server, name, got)
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"fs":{"command":"node","args":["x"],"env":{"A":"b"}}}}`))
	f.Add([]byte(`{"mcpServers":{"web":{"url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"Bearer x"},"effect":"read"}}}`))
	f.Add([]byte(`{"mcpServers":{"a.b":{"command":"x"}}}`))
	f.Add([]byte(`{"mcpServers":{"gh":{"command":"x","authority":"allow_session","tools":{"push":{"effect":"network_write","authority":"approve_diff"}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data)
		if err != nil {
			return
		}
		for _, n := range cfg.Names() {
			s := cfg.Servers[n]
			if !ValidServerName(n) || (s.Command == "") == (s.URL == "") || !s.effect("t").Valid() {
				t.Fatalf("accepted a bad server %q: %+v", n, s)
			}
			for tn := range s.Tools {
				c := s.ceiling(tn)
				if !authority.ValidCeiling(c) || (s.Authority != "" && c.Rank() > s.Authority.Rank()) {
					t.Fatalf("server %q tool %q: ceiling %q above the server's %q", n, tn, c, s.Authority)
				}
			}
		}
	})
}

// TestConfigPolicy: the host's effect class and authority ceiling per
// server and per tool; a tool's ceiling may only narrow its server's.
func TestConfigPolicy(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		kind      fault.Kind
		tool      string
		effect    authority.Effect
		ceiling   authority.Tier
	}{
		{"defaults", `{"command":"x"}`, "", "t", authority.EffectProcess, ""},
		{"http default", `{"url":"http://127.0.0.1:1/mcp"}`, "", "t", authority.EffectNetworkWrite, ""},
		{"read-only server", `{"command":"x","effect":"read"}`, "", "t", authority.EffectRead, ""},
		{"server ceiling", `{"command":"x","authority":"approve_diff"}`, "", "t", authority.EffectProcess, authority.ApproveDiff},
		{"tool narrows", `{"command":"x","authority":"allow_session","tools":{"t":{"effect":"write","authority":"approve_diff"}}}`, "", "t", authority.EffectWrite, authority.ApproveDiff},
		{"other tool keeps the server's", `{"command":"x","authority":"allow_session","tools":{"t":{"authority":"approve_diff"}}}`, "", "u", authority.EffectProcess, authority.AllowSession},
		{"tool ceiling alone", `{"command":"x","tools":{"t":{"authority":"dangerous"}}}`, "", "t", authority.EffectProcess, authority.Dangerous},
		{"tool may not widen", `{"command":"x","authority":"approve_diff","tools":{"t":{"authority":"allow_session"}}}`, fault.KindInvalidConfig, "", "", ""},
		{"allow_once is no ceiling", `{"command":"x","authority":"allow_once"}`, fault.KindInvalidConfig, "", "", ""},
		{"unknown tier", `{"command":"x","authority":"yolo"}`, fault.KindInvalidConfig, "", "", ""},
		{"unknown tool tier", `{"command":"x","tools":{"t":{"authority":"allow_once"}}}`, fault.KindInvalidConfig, "", "", ""},
		{"bad effect", `{"command":"x","tools":{"t":{"effect":"delete"}}}`, fault.KindInvalidConfig, "", "", ""},
	} {
		cfg, err := ParseConfig([]byte(`{"mcpServers":{"s":` + c.doc + `}}`))
		if fault.KindOf(err) != c.kind {
			t.Errorf("%s: %v, want %q", c.name, err, c.kind)
			continue
		}
		if err != nil {
			continue
		}
		s := cfg.Servers["s"]
		if e, ceil := s.effect(c.tool), s.ceiling(c.tool); e != c.effect || ceil != c.ceiling {
			t.Errorf("%s: effect %s ceiling %q, want %s %q", c.name, e, ceil, c.effect, c.ceiling)
		}
	}
}

// FuzzFrameReader: whatever a server writes, the framing reader passes on
// only complete JSON lines within the limit, and records a typed failure
// otherwise.
func FuzzFrameReader(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"), 64)
	f.Add([]byte("garbage\n"), 64)
	f.Add([]byte("{\"a\":\""+strings.Repeat("x", 200)+"\"}\n"), 64)
	f.Add([]byte("\n\n[1,2]\n{\"x\":1}"), 16)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		if limit < 1 || limit > 1<<16 {
			return
		}
		fail := &failure{}
		r := &frameReader{src: bufio.NewReaderSize(bytes.NewReader(data), 16), closer: io.NopCloser(nil), limit: limit, fail: fail}
		out, err := io.ReadAll(r)
		for _, line := range bytes.Split(out, []byte("\n")) {
			if len(line) > 0 && (!json.Valid(line) || len(line) > limit+1) {
				t.Fatalf("passed on %q", line)
			}
		}
		if err != nil && fail.get() == nil {
			t.Fatalf("error %v without a recorded failure", err)
		}
	})
}
