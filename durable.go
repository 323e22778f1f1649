package rlm

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/trace"
)

// Submit enqueues query as a durable run for the rlm worker processes
// serving Spec.Durable.Queue (default durable.DefaultQueue) on
// Spec.Durable.Database, and returns its id. The Spec travels with the
// run (durable.Submission.RunSpec): its contexts are recorded as absolute
// paths every worker must be able to read, and their content is
// fingerprinted here, so a worker that reads other content refuses the
// run (context_mismatch).
func (s *Session) Submit(ctx context.Context, query string) (string, error) {
	sp := s.spec
	if sp.Durable.Database == "" {
		return "", fault.New(fault.PhaseConfig, KindInvalidSpec, "a submitted run needs the database of the durable runs").
			With("field", "durable.database").WithHint("set Spec.Durable.Database (rlm submit --db URL)")
	}
	for _, f := range [][2]string{{"resume", sp.Resume}, {"trace", sp.Trace}} {
		if field, v := f[0], f[1]; v != "" {
			return "", fault.New(fault.PhaseConfig, fault.KindInvalid, "rlm submit does not take --"+field).With("flag", field).
				WithHint("a submitted run is continued by the workers; use rlm run --db URL for --resume and --trace")
		}
	}
	sub := durable.Submission{Query: query, Queue: sp.Durable.Queue}
	for _, p := range sp.Context {
		abs, err := sharedPath(p)
		if err != nil {
			return "", err
		}
		sub.Contexts = append(sub.Contexts, abs)
	}
	// Read the contexts at the absolute paths the workers will read, so
	// that the content fingerprinted here is the content a worker
	// computes (files of a composite context are ordered by name).
	sp.Context, sp.Durable.Database = sub.Contexts, ""
	store := corpus.NewStore()
	defer store.Close()
	eng, err := engine.New(s.engineConfig(store, ""))
	if err != nil {
		return "", err
	}
	h, err := AddContexts(ctx, store, sub.Contexts, s.opts.stdin)
	if err != nil {
		return "", err
	}
	if sub.Spec, sub.Content, err = fingerprintRun(eng.Config(), h, query); err != nil {
		return "", err
	}
	if s.answer != nil {
		// The schema travels with the run, not the path of its file.
		sp.AnswerSchema, sp.AnswerSchemaFile = s.answer.JSON(), ""
	}
	if sub.RunSpec, err = json.Marshal(sp); err != nil {
		return "", err
	}
	if sub.Queue == "" {
		sub.Queue = durable.DefaultQueue
	}
	return durable.Submit(ctx, s.spec.Durable.Database, sub)
}

// sharedPath returns the absolute form of a context path, refusing the
// inputs a worker cannot read.
func sharedPath(p string) (string, error) {
	if p == "-" || strings.Contains(p, "://") {
		return "", fault.New(fault.PhaseConfig, durable.KindContextNotShared, "a submitted run's context must be a file or directory every worker can read").
			With("context", p).
			WithHint("save it to a file on storage every worker mounts at the same path and pass that path to --context")
	}
	return filepath.Abs(p)
}

// RunSubmitted is the durable.WorkerConfig.Run of a worker on the database
// url: it opens the Spec a submission carries (with opts, e.g. WithLog)
// and runs it with the worker's executor, as Session.Run would.
func RunSubmitted(url string, opts ...Option) func(ctx context.Context, sub durable.Submission, x *durable.Executor) (*engine.Result, error) {
	return func(ctx context.Context, sub durable.Submission, x *durable.Executor) (*engine.Result, error) {
		if err := sub.CheckContexts(); err != nil {
			return nil, err
		}
		if len(sub.RunSpec) == 0 {
			return nil, fault.New(fault.PhaseConfig, KindInvalidSpec, "the submitted run carries no run spec (it was submitted by an rlm that recorded a command line)").
				With("run_id", sub.RunID).WithHint("submit the run again with this version of rlm")
		}
		var sp Spec
		if err := json.Unmarshal(sub.RunSpec, &sp); err != nil {
			return nil, err
		}
		sp.Durable.Database = url
		s, err := Open(ctx, sp, opts...)
		if err != nil {
			return nil, err
		}
		defer s.Close()
		res, err := s.runSubmitted(ctx, sub, x)
		if res == nil {
			res = &engine.Result{Status: engine.StatusFailed}
		}
		if res.Error == nil && err != nil {
			res.Error = fault.As(err)
		}
		return res, err
	}
}

// runSubmitted checks that the worker computes what was submitted and
// runs it with x.
func (s *Session) runSubmitted(ctx context.Context, sub durable.Submission, x *durable.Executor) (*engine.Result, error) {
	store := corpus.NewStore()
	defer store.Close()
	eng, err := engine.New(s.engineConfig(store, ""))
	if err != nil {
		return nil, err
	}
	h, err := s.addContext(ctx, store)
	if err != nil {
		return nil, err
	}
	spec, content, err := fingerprintRun(eng.Config(), h, sub.Query)
	if err != nil {
		return nil, err
	}
	if err := sub.CheckSpec(content, spec); err != nil {
		return nil, err
	}
	return s.durableBody(eng.Config(), h, sub.Query, trace.NewRecorder(), sub.RunID)(ctx, x)
}

// fingerprintRun fingerprints what a run computes: the query, the root
// context's content and the configuration a resume must repeat; content
// is the fingerprint of the context's content alone.
func fingerprintRun(cfg engine.Config, h corpus.Handle, query string) (spec, content string, err error) {
	// View, not Bytes: a context file truncated since it was mapped is
	// context_changed, not a SIGBUS.
	if err := cfg.Store.View(h, func(b []byte) error { content = fingerprint.Bytes(b); return nil }); err != nil {
		return "", "", err
	}
	fields := map[string]any{
		"query": query, "context": content, "model": cfg.Model, "sub_model": cfg.SubModel, "mode": cfg.Mode,
		"limits": specLimits(cfg.Limits), "capabilities": cfg.Capabilities.Strings(), "deep": cfg.ExperimentalDeepRecursion,
	}
	if cfg.AnswerSchema != nil {
		// Only when set: the runs recorded before typed answers resume.
		fields["answer_schema"] = string(cfg.AnswerSchema.JSON())
	}
	spec, err = fingerprint.Of(fields)
	return spec, content, err
}

// specLimits is budget.Limits in the form run specs fingerprint: the JSON
// budget.Limits had when durable runs were introduced (time_limit in
// nanoseconds; budget.Limits now writes time_limit_ms), so that a run
// recorded then still resumes.
func specLimits(l budget.Limits) any {
	type fields budget.Limits // no JSON methods; TimeLimit is json:"-"
	return struct {
		fields
		TimeLimit int64 `json:"time_limit"`
	}{fields(l), int64(l.TimeLimit)}
}
