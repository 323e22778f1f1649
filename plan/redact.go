package plan

import "strings"

// vocabulary is every field or key name a plan's error path may name: step
// fields, action fields and expression keys.
var vocabulary = func() map[string]bool {
	v := map[string]bool{"steps": true, "name": true, "key": true, "index": true}
	for _, fields := range stepFields {
		for _, f := range fields {
			v[f] = true
		}
	}
	for f := range actionFields {
		v[f] = true
	}
	for _, k := range reservedKeys {
		v[k] = true
	}
	return v
}()

// RedactPath returns an error path (detail "path" of this package's errors)
// in which every segment that is not a name of the plan language is
// replaced by "?", so a host can show the path to a model without echoing
// text the model wrote (an unknown field's key, an object expression's
// member names). List indexes are kept.
func RedactPath(path string) string {
	if path == "" {
		return ""
	}
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		name, rest, _ := strings.Cut(seg, "[")
		if rest != "" {
			rest = "[" + rest
		}
		if (name != "" && !vocabulary[name]) || !indexes(rest) {
			segs[i] = "?"
		}
	}
	return strings.Join(segs, ".")
}

// indexes reports whether s is a run of "[N]" list indexes.
func indexes(s string) bool {
	for s != "" {
		if s[0] != '[' {
			return false
		}
		end := strings.IndexByte(s, ']')
		if end < 2 {
			return false
		}
		for _, c := range s[1:end] {
			if c < '0' || c > '9' {
				return false
			}
		}
		s = s[end+1:]
	}
	return true
}
