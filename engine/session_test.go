package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// A session keeps variables and history across queries, and a saved
// session resumes with both.
func TestSessionPersistsAndResumes(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: count lines", py(`n = len(context.splitlines())`, `def twice(x):`, `    return 2 * x`, `FINAL(n)`)),
		reply("Query: double it", py(`FINAL(twice(n) + len(history))`)),
		reply("Query: again", py(`FINAL([n, history[0]["answer"], len(history)])`)),
	)
	s, err := f.eng.NewSession(f.h)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := s.Ask(ctx, "count lines")
	if err != nil || res.Answer != int64(3) {
		t.Fatalf("%v %+v", err, res)
	}
	res, err = s.Ask(ctx, "double it")
	if err != nil || res.Answer != int64(7) {
		t.Fatalf("%v %+v", err, res.Answer)
	}
	data, err := s.Save()
	if err != nil {
		t.Fatal(err)
	}
	var saved SavedSession
	if err := json.Unmarshal(data, &saved); err != nil || len(saved.History) != 2 || len(saved.Skipped) != 1 || saved.Skipped[0] != "twice" {
		t.Fatalf("%v %s", err, data)
	}
	r, err := f.eng.ResumeSession(data, f.h)
	if err != nil {
		t.Fatal(err)
	}
	res, err = r.Ask(ctx, "again")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res.Answer); string(got) != "[3,3,2]" {
		t.Fatalf("%s", got)
	}
	if len(r.History()) != 3 {
		t.Fatal(r.History())
	}
	// Restored variables are ordinary variables: saved again.
	data, err = r.Save()
	if err != nil || json.Unmarshal(data, &saved) != nil || saved.Globals["n"] != float64(3) || len(saved.History) != 3 {
		t.Fatalf("%v %s", err, data)
	}
	if _, err := f.eng.ResumeSession([]byte(`{"version":9}`), f.h); fault.KindOf(err) != KindInvalidSession {
		t.Fatalf("want invalid_session, got %v", err)
	}
}

func TestSessionNeedsCodeMode(t *testing.T) {
	f := newFixture(t, haystack, Config{})
	if _, err := f.eng.NewSession(f.h); fault.KindOf(err) != fault.KindInvalidConfig {
		t.Fatalf("want invalid_config, got %v", err)
	}
}

// Several inputs appear as context_0..N.
func TestRunInputs(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("context_0 .. context_1", py(`FINAL([len(context_0), len(context_1), context_1.find("two")])`)))
	h2, err := f.store.AddString("second", "one two\n")
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.eng.RunInputs(context.Background(), "q", f.h, h2)
	if got, _ := json.Marshal(res.Answer); err != nil || string(got) != "[50,8,4]" {
		t.Fatalf("%v %s", err, got)
	}
	p := newFixture(t, haystack, Config{})
	if _, err := p.eng.RunInputs(context.Background(), "q", p.h, h2); fault.KindOf(err) != fault.KindInvalidConfig {
		t.Fatalf("want invalid_config, got %v", err)
	}
}
