package textwrap

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// pySig is the signature of a function CPython defines in Python, so that
// argument errors read as CPython's for such a function. Methods list self
// among pos (CPython counts it in its messages).
type pySig struct {
	name     string   // as messages show it: "Random.choices"
	pos      []string // positional parameters
	posOnly  int      // the first posOnly of pos are positional-only
	required int      // the first required of pos have no default
	kwOnly   []string // keyword-only parameters
	kwReq    int      // the first kwReq of kwOnly are required
	varargs  bool     // *args collects extra positional arguments
	varkw    bool     // **kwargs collects unknown keyword arguments
}

// bind returns the values of pos then kwOnly (nil where not given), the
// extra positional arguments (*args) and the unknown keyword arguments
// (**kwargs).
func (s *pySig) bind(args []python.Object, kwargs []python.Kwarg) (vals, extra []python.Object, rest []python.Kwarg, err error) {
	np := len(s.pos)
	if len(args) > np && !s.varargs {
		takes := itoa(np)
		if s.required < np {
			takes = "from " + itoa(s.required) + " to " + itoa(np)
		}
		word := "arguments"
		if np == 1 && s.required == 1 {
			word = "argument"
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return nil, nil, nil, python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d %s given", s.name, takes, word, len(args), was)
	}
	vals = make([]python.Object, np+len(s.kwOnly))
	copy(vals[:np], args)
	if len(args) > np {
		extra = args[np:]
	}
	for _, kw := range kwargs {
		idx, posOnly := -1, false
		for i, p := range s.pos {
			if p == kw.Name {
				if i < s.posOnly {
					posOnly = true
				} else {
					idx = i
				}
			}
		}
		for i, p := range s.kwOnly {
			if p == kw.Name {
				idx = np + i
			}
		}
		if idx < 0 {
			if s.varkw {
				rest = append(rest, kw)
				continue
			}
			if posOnly {
				var names []string
				for _, k := range kwargs {
					for _, p := range s.pos[:s.posOnly] {
						if p == k.Name {
							names = append(names, p)
						}
					}
				}
				return nil, nil, nil, python.Errorf(python.TypeErrorType, "%s() got some positional-only arguments passed as keyword arguments: '%s'", s.name, strings.Join(names, ", "))
			}
			return nil, nil, nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", s.name, kw.Name)
		}
		if vals[idx] != nil {
			return nil, nil, nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", s.name, kw.Name)
		}
		vals[idx] = kw.Value
	}
	if err := s.missing("positional", s.pos[:s.required], vals[:s.required]); err != nil {
		return nil, nil, nil, err
	}
	if err := s.missing("keyword-only", s.kwOnly[:s.kwReq], vals[np:np+s.kwReq]); err != nil {
		return nil, nil, nil, err
	}
	return vals, extra, rest, nil
}

func (s *pySig) missing(kind string, names []string, vals []python.Object) error {
	var miss []string
	for i, v := range vals {
		if v == nil {
			miss = append(miss, "'"+names[i]+"'")
		}
	}
	if len(miss) == 0 {
		return nil
	}
	var list string
	switch len(miss) {
	case 1:
		list = miss[0]
	case 2:
		list = miss[0] + " and " + miss[1]
	default:
		list = strings.Join(miss[:len(miss)-1], ", ") + ", and " + miss[len(miss)-1]
	}
	word := "argument"
	if len(miss) > 1 {
		word = "arguments"
	}
	return python.Errorf(python.TypeErrorType, "%s() missing %d required %s %s: %s", s.name, len(miss), kind, word, list)
}

func itoa(n int) string {
	s, _ := python.Repr(nil, python.MakeInt(int64(n)))
	return s
}
