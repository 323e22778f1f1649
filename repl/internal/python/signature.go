package python

import "strings"

// Signature is the signature of a function CPython defines in Python, so
// that a library module's argument errors read as CPython's for such a
// function. Methods list self among Pos (CPython counts it in its
// messages).
type Signature struct {
	Name     string   // as messages show it: "Random.choices"
	Pos      []string // positional parameters
	PosOnly  int      // the first PosOnly of Pos are positional-only
	Required int      // the first Required of Pos have no default
	KwOnly   []string // keyword-only parameters
	KwReq    int      // the first KwReq of KwOnly are required
	Varargs  bool     // *args collects extra positional arguments
	Varkw    bool     // **kwargs collects unknown keyword arguments
}

// Bind returns the values of Pos then KwOnly (nil where not given), the
// extra positional arguments (*args) and the unknown keyword arguments
// (**kwargs), or CPython's TypeError for arguments the signature does not
// take.
func (s *Signature) Bind(args []Object, kwargs []Kwarg) (vals, extra []Object, rest []Kwarg, err error) {
	np := len(s.Pos)
	if len(args) > np && !s.Varargs {
		takes := itoa(np)
		if s.Required < np {
			takes = "from " + itoa(s.Required) + " to " + itoa(np)
		}
		word := "arguments"
		if np == 1 && s.Required == 1 {
			word = "argument"
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return nil, nil, nil, Errorf(TypeErrorType, "%s() takes %s positional %s but %d %s given", s.Name, takes, word, len(args), was)
	}
	vals = make([]Object, np+len(s.KwOnly))
	copy(vals[:np], args)
	if len(args) > np {
		extra = args[np:]
	}
	for _, kw := range kwargs {
		idx, posOnly := -1, false
		for i, p := range s.Pos {
			if p == kw.Name {
				if i < s.PosOnly {
					posOnly = true
				} else {
					idx = i
				}
			}
		}
		for i, p := range s.KwOnly {
			if p == kw.Name {
				idx = np + i
			}
		}
		if idx < 0 {
			if s.Varkw {
				rest = append(rest, kw)
				continue
			}
			if posOnly {
				var names []string
				for _, k := range kwargs {
					for _, p := range s.Pos[:s.PosOnly] {
						if p == k.Name {
							names = append(names, p)
						}
					}
				}
				return nil, nil, nil, Errorf(TypeErrorType, "%s() got some positional-only arguments passed as keyword arguments: '%s'", s.Name, strings.Join(names, ", "))
			}
			return nil, nil, nil, Errorf(TypeErrorType, "%s() got an unexpected keyword argument '%s'", s.Name, kw.Name)
		}
		if vals[idx] != nil {
			return nil, nil, nil, Errorf(TypeErrorType, "%s() got multiple values for argument '%s'", s.Name, kw.Name)
		}
		vals[idx] = kw.Value
	}
	if err := s.missing("positional", s.Pos[:s.Required], vals[:s.Required]); err != nil {
		return nil, nil, nil, err
	}
	if err := s.missing("keyword-only", s.KwOnly[:s.KwReq], vals[np:np+s.KwReq]); err != nil {
		return nil, nil, nil, err
	}
	return vals, extra, rest, nil
}

func (s *Signature) missing(kind string, names []string, vals []Object) error {
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
	return Errorf(TypeErrorType, "%s() missing %d required %s %s: %s", s.Name, len(miss), kind, word, list)
}

// Values is Bind for a signature without *args and **kwargs: the values
// of Pos then KwOnly (nil where not given).
func (s *Signature) Values(args []Object, kwargs []Kwarg) ([]Object, error) {
	vals, _, _, err := s.Bind(args, kwargs)
	return vals, err
}
