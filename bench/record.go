package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// Files of a record directory (Config.Record).
const (
	// ManifestFile describes the run: what it read (with SHA-256), how it
	// was configured and every finished trial's cassette.
	ManifestFile = "manifest.json"
	// JournalFile holds one JSON line per finished trial, appended as the
	// trial finishes: what --resume skips and replay checks against.
	JournalFile = "journal.jsonl"
	// ReportFile is the run's report (the JSON of rlm bench run --json).
	ReportFile = "report.json"
	// JudgePromptFile is the judge's grader prompt, when there is one.
	JudgePromptFile = "judge_prompt.txt"
	// CassetteDir holds one cassette per trial (model/replay format).
	CassetteDir = "cassettes"
	// ManifestVersion is the manifest's schema version.
	ManifestVersion = 1
)

// Error kinds of record directories, resume and replay.
const (
	// KindRecordMissing reports a file a record names that does not exist:
	// the manifest, an input file, a cassette (detail "file").
	KindRecordMissing fault.Kind = "bench_record_missing"
	// KindRecordAltered reports a file whose SHA-256 differs from the one
	// the manifest recorded (detail "file", "want_sha256", "got_sha256").
	KindRecordAltered fault.Kind = "bench_record_altered"
	// KindRecordInvalid reports a manifest or journal that is not what
	// rlm bench run writes (detail "file", "line").
	KindRecordInvalid fault.Kind = "bench_record_invalid"
	// KindRecordExists reports a record directory that already holds a
	// run, without Config.Resume (detail "dir").
	KindRecordExists fault.Kind = "bench_record_exists"
	// KindResumeMismatch reports a resumed run configured differently from
	// the recorded one (detail "field", "recorded", "now").
	KindResumeMismatch fault.Kind = "bench_resume_mismatch"
	// KindReplayDiffers reports a replayed trial whose status, score or
	// cost differs from the recorded one (detail "run", "method",
	// "field", "recorded", "replayed").
	KindReplayDiffers fault.Kind = "bench_replay_differs"
)

// Manifest describes a recorded run: enough to run it again (Replay) and
// to check that its inputs are the ones it read.
type Manifest struct {
	SchemaVersion int    `json:"schema_version"`
	RLMVersion    string `json:"rlm_version"`
	// Suite, or Task, Size and Runs: what the trials answered.
	Suite string `json:"suite,omitempty"`
	Task  Kind   `json:"task,omitempty"`
	Size  int    `json:"size,omitempty"`
	Runs  int    `json:"runs,omitempty"`
	Seed  uint64 `json:"seed"`
	// Inputs are the files read, with their SHA-256 (Data, Corpus).
	Inputs []InputFile `json:"inputs,omitempty"`
	Subset string      `json:"subset,omitempty"`
	Limit  int         `json:"limit,omitempty"`
	Sample int         `json:"sample,omitempty"`
	Docs   int         `json:"docs,omitempty"`
	// Models and methods.
	Model      string   `json:"model"`
	SubModel   string   `json:"sub_model"`
	Methods    []Method `json:"methods"`
	Judged     bool     `json:"judged,omitempty"`
	JudgeModel string   `json:"judge_model,omitempty"`
	// JudgeSHA256 is the SHA-256 of JudgePromptFile.
	JudgeSHA256    string        `json:"judge_sha256,omitempty"`
	DirectMaxBytes int           `json:"direct_max_bytes"`
	MaxTokens      int           `json:"max_tokens"`
	Limits         budget.Limits `json:"limits"`
	// Spec is the session's Spec without its outputs, cache directory and
	// credentials (the base URL keeps scheme, host and path only).
	Spec rlm.Spec `json:"spec"`
	// Replayed marks a run whose responses were already replayed.
	Replayed bool `json:"replayed,omitempty"`
	// CommandLine is the command that ran (Config.CommandLine; a URL
	// argument keeps scheme, host and path only).
	CommandLine []string `json:"command_line,omitempty"`
	// Trials are the finished trials in report order.
	Trials []RecordedTrial `json:"trials"`
}

// InputFile is a file a recorded run read.
type InputFile struct {
	// Role is "data" (Config.Data) or "corpus" (SuiteOptions.Corpus).
	Role   string `json:"role"`
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// RecordedTrial names one finished trial's cassette.
type RecordedTrial struct {
	Run    int    `json:"run"`
	Method Method `json:"method"`
	TaskID string `json:"task_id,omitempty"`
	Seed   uint64 `json:"seed"`
	// Cassette is the path of the trial's cassette, relative to the
	// record directory, and CassetteSHA256 its SHA-256.
	Cassette       string `json:"cassette"`
	CassetteSHA256 string `json:"cassette_sha256"`
	// Requests counts the responses in the cassette.
	Requests int `json:"requests"`
}

// journalEntry is one line of JournalFile.
type journalEntry struct {
	RecordedTrial
	Result Trial `json:"result"`
}

// recordDir is the record directory of a running benchmark: it saves
// each finished trial's cassette and journal line, and the manifest.
type recordDir struct {
	dir      string
	manifest Manifest
	mu       sync.Mutex
	journal  *os.File
	done     map[string]journalEntry // finished trials by trialKey
}

func trialKey(run int, m Method) string { return fmt.Sprintf("%d/%s", run, m) }

// sha256File returns the SHA-256 (hex) and size of the file at path.
func sha256File(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

func sha256Bytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// missing is KindRecordMissing naming file.
func missing(err error, file, what string) *fault.Error {
	return fault.Wrap(err, fault.PhaseConfig, KindRecordMissing, what+" is missing").With("file", file)
}

// checkSHA256 checks that the file at path exists and has the SHA-256 want.
func checkSHA256(path, want, what string) error {
	got, _, err := sha256File(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return missing(err, path, what)
		}
		return fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read "+what).With("file", path)
	}
	if got != want {
		return fault.New(fault.PhaseConfig, KindRecordAltered, what+" differs from the one recorded (SHA-256)").
			With("file", path).With("want_sha256", want).With("got_sha256", got).
			WithHint("a recorded run replays only over the very files it read")
	}
	return nil
}

// writeAtomic writes b to path through a temporary file in the same
// directory, synced and renamed over path.
func writeAtomic(path string, b []byte) error {
	ioErr := func(err error) error {
		return fault.Wrap(err, fault.PhaseExecute, fault.KindIO, "cannot write the record file").With("file", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return ioErr(err)
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return ioErr(err)
	}
	return nil
}

func marshalIndent(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("bench: a record must encode: " + err.Error())
	}
	return buf.Bytes()
}

// manifestOf describes the run cfg configures over sess (no trials yet).
func (cfg *Config) manifestOf(sess *rlm.Session) (Manifest, error) {
	m := Manifest{SchemaVersion: ManifestVersion, RLMVersion: rlm.Version(), Suite: cfg.Suite, Seed: cfg.Seed,
		Model: cfg.Model, SubModel: cfg.SubModel, Methods: cfg.Methods, DirectMaxBytes: cfg.DirectMaxBytes, MaxTokens: cfg.MaxTokens,
		Limits: cfg.Limits, Replayed: cfg.Replayed, Trials: []RecordedTrial{}}
	for _, a := range cfg.CommandLine {
		m.CommandLine = append(m.CommandLine, publicArg(a))
	}
	if cfg.Suite == "" {
		m.Task, m.Size, m.Runs = cfg.Task, cfg.Size, cfg.Runs
	} else {
		o := cfg.SuiteOptions
		m.Seed, m.Subset, m.Limit, m.Sample, m.Docs = o.Seed, o.Subset, o.Limit, o.Sample, o.Docs
		for _, in := range []InputFile{{Role: "data", Path: cfg.Data}, {Role: "corpus", Path: o.Corpus}} {
			if in.Path == "" {
				continue
			}
			var err error
			if in.SHA256, in.Bytes, err = sha256File(in.Path); err != nil {
				return m, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read the benchmark file").With("file", in.Path)
			}
			m.Inputs = append(m.Inputs, in)
		}
	}
	if cfg.Judge != nil {
		m.Judged, m.JudgeModel, m.JudgeSHA256 = true, cfg.judgeModel(), sha256Bytes([]byte(cfg.Judge.Prompt))
	}
	sp := sess.Spec()
	sp.Record, sp.Replay, sp.Trace, sp.Cache.Dir, sp.OTLP, sp.Durable = "", "", "", "", rlm.OTLPSpec{}, rlm.DurableSpec{}
	sp.BaseURL = publicURL(sp.BaseURL)
	m.Spec = sp
	return m, nil
}

// publicURL is u without user information, query and fragment.
func publicURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || u == "" {
		return ""
	}
	p.User, p.RawQuery, p.Fragment = nil, "", ""
	return p.String()
}

// publicArg is a command-line argument without the credentials a URL in
// it may carry ("--base-url=URL" or "URL").
func publicArg(a string) string {
	if !strings.Contains(a, "://") {
		return a
	}
	if flag, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(flag, "-") {
		return flag + "=" + publicURL(v)
	}
	return publicURL(a)
}

// identity is m's JSON without what may change between a run and its
// resumption (the trials, the command line, the build).
func (m Manifest) identity() map[string]json.RawMessage {
	m.Trials, m.CommandLine, m.RLMVersion = nil, nil, ""
	var out map[string]json.RawMessage
	_ = json.Unmarshal(marshalIndent(m), &out)
	return out
}

// openRecord opens cfg.Record for the run (nil without one): a new
// directory, or with cfg.Resume the recorded run's, whose finished trials
// are then taken from its journal.
func (cfg *Config) openRecord(sess *rlm.Session, tasks instances) (*recordDir, error) {
	if cfg.Record == "" {
		if cfg.Resume {
			return nil, fault.New(fault.PhaseConfig, KindInvalidTask, "resume needs the record directory of the run").
				WithHint("resume with the same command, its --record DIR included, plus --resume")
		}
		return nil, nil
	}
	if !sess.Spec().Cache.Off {
		// A response the session's cache answers never reaches the
		// trial's recorder: its cassette would miss it.
		return nil, fault.New(fault.PhaseConfig, KindInvalidTask, "a record directory needs the session's response cache off").
			With("dir", cfg.Record).WithHint("open the session with Spec.Cache.Off set (rlm bench run --record DIR does)")
	}
	m, err := cfg.manifestOf(sess)
	if err != nil {
		return nil, err
	}
	r := &recordDir{dir: cfg.Record, manifest: m, done: map[string]journalEntry{}}
	mpath := filepath.Join(cfg.Record, ManifestFile)
	jpath := filepath.Join(cfg.Record, JournalFile)
	if cfg.Resume {
		old, err := ReadManifest(cfg.Record)
		if err != nil {
			return nil, err
		}
		if err := resumable(*old, m); err != nil {
			return nil, err
		}
		entries, err := readJournal(jpath)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Run < 0 || e.Run >= tasks.n || !slices.Contains(cfg.Methods, e.Method) {
				return nil, fault.New(fault.PhaseConfig, KindRecordInvalid, "the journal names a trial the run does not have").
					With("file", jpath).With("run", e.Run).With("method", string(e.Method))
			}
			r.done[trialKey(e.Run, e.Method)] = e
		}
	} else {
		if _, err := os.Stat(mpath); err == nil {
			return nil, fault.New(fault.PhaseConfig, KindRecordExists, "the record directory already holds a run").With("dir", cfg.Record).
				WithHint("add --resume to continue it, or record into another directory")
		}
		if err := os.MkdirAll(filepath.Join(cfg.Record, CassetteDir), 0o755); err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot create the record directory").With("dir", cfg.Record)
		}
		if cfg.Judge != nil {
			if err := writeAtomic(filepath.Join(cfg.Record, JudgePromptFile), []byte(cfg.Judge.Prompt)); err != nil {
				return nil, err
			}
		}
		if err := writeAtomic(jpath, nil); err != nil {
			return nil, err
		}
		if err := writeAtomic(mpath, marshalIndent(m)); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Join(cfg.Record, CassetteDir), 0o755); err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot create the record directory").With("dir", cfg.Record)
	}
	r.journal, err = os.OpenFile(jpath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot open the journal").With("file", jpath)
	}
	return r, nil
}

// resumable refuses to resume old with a run configured as now.
func resumable(old, now Manifest) error {
	a, b := old.identity(), now.identity()
	for _, k := range slices.Sorted(maps.Keys(mergeKeys(a, b))) {
		if !bytes.Equal(compactJSON(a[k]), compactJSON(b[k])) {
			return fault.New(fault.PhaseConfig, KindResumeMismatch, "the resumed run is configured differently from the recorded one").
				With("field", k).With("recorded", string(compactJSON(a[k]))).With("now", string(compactJSON(b[k]))).
				WithHint("resume with the command that started the run, plus --resume (the input files must be unchanged)")
		}
	}
	return nil
}

func mergeKeys(a, b map[string]json.RawMessage) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func compactJSON(b json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

// finished returns the journal's result of a trial (resume).
func (r *recordDir) finished(run int, m Method) (journalEntry, bool) {
	if r == nil {
		return journalEntry{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.done[trialKey(run, m)]
	return e, ok
}

// cassetteName is the cassette of trial (run, m), relative to the record
// directory.
func cassetteName(run int, m Method) string {
	return filepath.ToSlash(filepath.Join(CassetteDir, fmt.Sprintf("trial-%05d-%s.json", run, m)))
}

// save writes a finished trial's cassette, then its journal line (one
// write, synced: a torn last line is ignored by readJournal, and that
// trial is run again on resume).
func (r *recordDir) save(tr Trial, rec *replay.Recorder) error {
	c := rec.Cassette()
	b, err := c.Marshal()
	if err != nil {
		return err
	}
	name := cassetteName(tr.Run, tr.Method)
	if err := writeAtomic(filepath.Join(r.dir, filepath.FromSlash(name)), b); err != nil {
		return err
	}
	e := journalEntry{RecordedTrial: RecordedTrial{Run: tr.Run, Method: tr.Method, TaskID: tr.TaskID, Seed: tr.Seed,
		Cassette: name, CassetteSHA256: sha256Bytes(b), Requests: len(c.Interactions)}, Result: tr}
	line, err := json.Marshal(e)
	if err != nil {
		return fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "cannot encode the journal line")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.journal.Write(append(line, '\n')); err != nil {
		return fault.Wrap(err, fault.PhaseExecute, fault.KindIO, "cannot append to the journal").With("file", r.journal.Name())
	}
	if err := r.journal.Sync(); err != nil {
		return fault.Wrap(err, fault.PhaseExecute, fault.KindIO, "cannot sync the journal").With("file", r.journal.Name())
	}
	r.done[trialKey(tr.Run, tr.Method)] = e
	return nil
}

// close writes the manifest with the finished trials (in report order)
// and the report, and closes the journal.
func (r *recordDir) close(rep *Report, methods []Method, n int) error {
	if r == nil {
		return nil
	}
	r.journal.Close()
	r.manifest.Trials = []RecordedTrial{}
	for i := range n {
		for _, m := range methods {
			if e, ok := r.done[trialKey(i, m)]; ok {
				r.manifest.Trials = append(r.manifest.Trials, e.RecordedTrial)
			}
		}
	}
	if err := writeAtomic(filepath.Join(r.dir, ManifestFile), marshalIndent(r.manifest)); err != nil {
		return err
	}
	if rep == nil {
		return nil
	}
	return writeAtomic(filepath.Join(r.dir, ReportFile), marshalIndent(rep))
}

// ReadManifest reads the manifest of the record directory dir.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, missing(err, path, "the record's manifest").WithHint("name the directory rlm bench run --record DIR wrote")
		}
		return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read the manifest").With("file", path)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err = dec.Decode(&m)
	if err == nil {
		if _, terr := dec.Token(); !errors.Is(terr, io.EOF) {
			err = errors.New("trailing data after the manifest")
		}
	}
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseParse, KindRecordInvalid, "the manifest is not one rlm bench run writes").With("file", path)
	}
	if m.SchemaVersion != ManifestVersion {
		return nil, fault.New(fault.PhaseParse, KindRecordInvalid, "unknown manifest schema_version").With("file", path).
			With("schema_version", m.SchemaVersion)
	}
	return &m, nil
}

// readJournal reads the finished trials of a journal; a last line cut
// short (a crash while it was written) is ignored.
func readJournal(path string) ([]journalEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, missing(err, path, "the record's journal")
		}
		return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read the journal").With("file", path)
	}
	defer f.Close()
	var out []journalEntry
	rd := bufio.NewReader(f)
	for line := 1; ; line++ {
		b, err := rd.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] != '\n' {
			break // torn last line
		}
		if len(b) > 0 {
			var e journalEntry
			if jerr := json.Unmarshal(b, &e); jerr != nil || e.Cassette == "" {
				return nil, fault.Wrap(jerr, fault.PhaseParse, KindRecordInvalid, "a journal line is not a finished trial").
					With("file", path).With("line", line)
			}
			out = append(out, e)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read the journal").With("file", path)
		}
	}
	return out, nil
}

// ReplayOptions change where Replay reads the recorded run's inputs.
type ReplayOptions struct {
	// Data and Corpus, when set, are read instead of the paths the
	// manifest names (their SHA-256 must still match).
	Data, Corpus string
	// MaxConcurrency replays this many trials at once (default 1).
	MaxConcurrency int
	// Progress is Config.Progress.
	Progress func(Progress)
	// NewStore is Config.NewStore (a document task's PDF engine).
	NewStore func() *corpus.Store
}

// Replay runs every trial recorded in dir again, offline: each against
// its own cassette through an in-process replay server (no key, no
// network), scored again from the input files, which must be the ones
// recorded (SHA-256; KindRecordMissing, KindRecordAltered naming the
// file). The report is labelled replayed. When a trial's status, score
// or cost differs from the recorded one, the report comes with
// KindReplayDiffers.
func Replay(ctx context.Context, dir string, o ReplayOptions) (*Report, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	cfg := Config{Task: m.Task, Size: m.Size, Runs: m.Runs, Seed: m.Seed, Suite: m.Suite, Methods: m.Methods,
		DirectMaxBytes: m.DirectMaxBytes, MaxTokens: m.MaxTokens, Limits: m.Limits, Replayed: true,
		MaxConcurrency: o.MaxConcurrency, Progress: o.Progress, NewStore: o.NewStore}
	cfg.SuiteOptions.Seed, cfg.SuiteOptions.Subset, cfg.SuiteOptions.Limit, cfg.SuiteOptions.Sample, cfg.SuiteOptions.Docs = m.Seed, m.Subset, m.Limit, m.Sample, m.Docs
	for _, in := range m.Inputs {
		path := in.Path
		switch in.Role {
		case "data":
			if o.Data != "" {
				path = o.Data
			}
			cfg.Data = path
		case "corpus":
			if o.Corpus != "" {
				path = o.Corpus
			}
			cfg.SuiteOptions.Corpus = path
		}
		if err := checkSHA256(path, in.SHA256, "the benchmark's "+in.Role+" file"); err != nil {
			return nil, err
		}
	}
	if m.Judged {
		path := filepath.Join(dir, JudgePromptFile)
		if err := checkSHA256(path, m.JudgeSHA256, "the judge's prompt"); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read the judge's prompt").With("file", path)
		}
		cfg.Judge, cfg.JudgeModel = &suite.JudgeConfig{Prompt: string(b)}, m.JudgeModel
	}
	recorded, err := readJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		return nil, err
	}
	byKey := map[string]journalEntry{}
	for _, e := range recorded {
		byKey[trialKey(e.Run, e.Method)] = e
	}
	cfg.replay = map[string]*replay.Cassette{}
	for _, t := range m.Trials {
		path := filepath.Join(dir, filepath.FromSlash(t.Cassette))
		if err := checkSHA256(path, t.CassetteSHA256, "a trial's cassette"); err != nil {
			return nil, err
		}
		cas, err := replay.Load(path)
		if err != nil {
			return nil, err
		}
		cfg.replay[trialKey(t.Run, t.Method)] = cas
		if _, ok := byKey[trialKey(t.Run, t.Method)]; !ok {
			return nil, fault.New(fault.PhaseParse, KindRecordInvalid, "the manifest names a trial the journal does not hold").
				With("file", filepath.Join(dir, JournalFile)).With("run", t.Run).With("method", string(t.Method))
		}
	}
	sp := m.Spec
	sp.Provider, sp.BaseURL, sp.APIKeyEnv, sp.FallbackModels, sp.StrictCost = "", "", "", nil, false
	sp.Cache = rlm.CacheSpec{Off: true, Temperature: sp.Cache.Temperature, AnyTemperature: sp.Cache.AnyTemperature}
	sess, err := rlm.Open(ctx, sp, rlm.WithProvider(offline{}))
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	cfg.Session = sess
	rep, err := Run(ctx, cfg)
	if err != nil || rep == nil {
		return rep, err
	}
	return rep, compareReplay(rep, byKey)
}

// offline answers no request: every trial of a replay has its own
// cassette.
type offline struct{}

func (offline) Complete(context.Context, model.Request) (*model.Response, error) {
	return nil, fault.New(fault.PhaseReplay, KindRecordInvalid, "a replayed request outside any trial's cassette")
}

// cassetteServer serves cas through an in-process replay server and the
// real HTTP provider; close stops the server.
func cassetteServer(cas *replay.Cassette, modelName string) (model.Provider, func(), error) {
	srv := replay.NewServer(cas)
	p, err := openai.New(openai.Config{Name: "replay", BaseURL: srv.BaseURL(), Model: modelName, MaxRetries: -1})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return p, srv.Close, nil
}

// compareReplay checks every replayed trial against its recorded result:
// status, score (bit for bit), exact match, and cost (to 1e-9 relative: a
// trial's cost is a sum of its calls' costs in the order they finished,
// and sub-calls in flight at once finish in either order).
func compareReplay(rep *Report, recorded map[string]journalEntry) error {
	for _, tr := range rep.Trials {
		e, ok := recorded[trialKey(tr.Run, tr.Method)]
		if !ok {
			continue
		}
		was := e.Result
		differs := func(field string, a, b any) error {
			return fault.New(fault.PhaseExecute, KindReplayDiffers, "a replayed trial differs from the recorded run").
				With("run", tr.Run).With("method", string(tr.Method)).With("field", field).
				With("recorded", fmt.Sprint(a)).With("replayed", fmt.Sprint(b)).
				WithHint("the report above is the replay's; the journal holds the recorded trial")
		}
		switch {
		case tr.Status != was.Status:
			return differs("status", was.Status, tr.Status)
		case math.Float64bits(tr.Score) != math.Float64bits(was.Score):
			return differs("score", was.Score, tr.Score)
		case (tr.ExactMatch == nil) != (was.ExactMatch == nil) || tr.ExactMatch != nil && *tr.ExactMatch != *was.ExactMatch:
			return differs("exact_match", was.ExactMatch, tr.ExactMatch)
		case !sameCost(tr.Usage.CostUSD, was.Usage.CostUSD):
			return differs("cost_usd", was.Usage.CostUSD, tr.Usage.CostUSD)
		case tr.Usage.TotalTokens != was.Usage.TotalTokens:
			return differs("total_tokens", was.Usage.TotalTokens, tr.Usage.TotalTokens)
		}
	}
	return nil
}

func sameCost(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}
