package re

import (
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

// scan is a resumable scan over a subject: finditer's iterator and the
// SRE_Scanner object. Over a context, whose bytes may be read only inside
// one host operation, finditer reads ahead a batch of matches per
// operation (doubling up to batchMatches) and hands them out one by one;
// an error met while reading ahead waits until the matches before it are
// taken.
type scan struct {
	p           *Pattern
	sj          *subject
	pos, endpos int64
	sc          *sre.Scanner
	lim         sre.Limits
	c           conv
	cpos, cend  int
	// Read-ahead state (contexts only).
	buf     []*Match
	pending error
	done    bool
	batch   int
}

func (p *Pattern) newScan(sj *subject, pos, endpos int64) *scan {
	return &scan{p: p, sj: sj, pos: pos, endpos: endpos, batch: 16}
}

// attach prepares the engine's scanner on the view.
func (s *scan) attach(t *python.Thread, v *view) {
	if s.sc == nil {
		var bpos, bend int
		s.cpos, s.cend, bpos, bend = v.clamp(s.pos, s.endpos)
		s.lim = limits(t, len(v.s))
		s.sc = s.p.re.Scanner(v.text, bpos, bend, s.lim)
		return
	}
	s.sc.SetText(v.text)
}

// step returns the next match (search or match mode), or nil at the end.
func (s *scan) step(t *python.Thread, search bool) (python.Object, error) {
	if s.done {
		return nil, nil
	}
	var res *Match
	err := s.sj.view(t, &s.c, func(v *view) error {
		s.attach(t, v)
		var sm *sre.Match
		var err error
		if search {
			sm, err = s.sc.Search(t.Context())
		} else {
			sm, err = s.sc.Match(t.Context())
		}
		if err != nil || sm == nil {
			return err
		}
		res = newMatchOwning(t, v, s.p, sm, s.cpos, s.cend)
		return nil
	})
	if err != nil {
		s.done = true
		return nil, mapErr(t, err, s.lim)
	}
	if res == nil {
		s.done = true
		return nil, nil
	}
	return res, nil
}

// next is finditer's next: one match per call, read ahead in batches over
// a context.
func (s *scan) next(t *python.Thread) (python.Object, error) {
	if err := t.Tick(1); err != nil {
		return nil, err
	}
	if s.sj.kind != kindHost {
		return s.step(t, true)
	}
	if len(s.buf) == 0 && s.pending == nil && !s.done {
		s.fill(t)
	}
	if len(s.buf) > 0 {
		m := s.buf[0]
		s.buf[0] = nil
		s.buf = s.buf[1:]
		return m, nil
	}
	if err := s.pending; err != nil {
		s.pending = nil
		s.done = true
		return nil, err
	}
	return nil, nil
}

// fill reads the next batch of matches from a context.
func (s *scan) fill(t *python.Thread) {
	copied := 0
	err := s.sj.view(t, &s.c, func(v *view) error {
		s.attach(t, v)
		for len(s.buf) < s.batch && copied < batchBytes {
			sm, err := s.sc.Search(t.Context())
			if err != nil {
				return err
			}
			if sm == nil {
				s.done = true
				return nil
			}
			m := newMatchOwning(t, v, s.p, sm, s.cpos, s.cend)
			copied += len(m.text)
			s.buf = append(s.buf, m)
		}
		return nil
	})
	if err != nil {
		s.pending = mapErr(t, err, s.lim)
	}
	s.batch = min(2*s.batch, batchMatches)
}

// finditer returns Pattern.finditer's iterator (callable_iterator, as in
// CPython, where it is iter(scanner.search, None)).
func (p *Pattern) finditer(t *python.Thread, sj *subject, pos, endpos int64) python.Object {
	s := p.newScan(sj, pos, endpos)
	return python.NewIterator(python.CallableIterType, s.next)
}

// Scanner is the _sre.SRE_Scanner object of Pattern.scanner.
type Scanner struct {
	id uint64
	s  *scan
}

var scannerType *python.Type

// Type returns _sre.SRE_Scanner.
func (*Scanner) Type() *python.Type { return scannerType }

func (p *Pattern) newScanner(sj *subject, pos, endpos int64) *Scanner {
	return &Scanner{id: newID(), s: p.newScan(sj, pos, endpos)}
}

// PyRepr renders <_sre.SRE_Scanner object at 0x...>.
func (sc *Scanner) PyRepr(t *python.Thread) (string, error) {
	return fmt.Sprintf("<_sre.SRE_Scanner object at 0x7f%010x>", sc.id*16), nil
}

// PyHash hashes by identity.
func (sc *Scanner) PyHash(*python.Thread) (int64, error) { return int64(sc.id), nil }

func initScannerType() {
	scannerType = python.NewBuiltinType("SRE_Scanner", "_sre", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.Errorf(python.TypeErrorType, "cannot create '_sre.SRE_Scanner' instances")
	})
	scannerType.SetFinal()
	for _, name := range []string{"match", "search"} {
		name := name
		scannerType.AddMethod(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			// CPython's Clinic code takes no positional argument and
			// ignores keywords.
			if len(args) != 1 {
				return nil, python.Errorf(python.TypeErrorType, "%s() takes no arguments", name)
			}
			m, err := args[0].(*Scanner).s.step(t, name == "search")
			if m == nil && err == nil {
				return python.None, nil
			}
			return m, err
		})
	}
	scannerType.AddGetSet("pattern", func(t *python.Thread, obj python.Object) (python.Object, error) {
		return obj.(*Scanner).s.p, nil
	}, nil)
}
