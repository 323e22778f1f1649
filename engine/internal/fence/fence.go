// Package fence extracts the code blocks of a model's reply in code mode.
// Its input is untrusted model output; it never fails, and what it does not
// recognize as code is prose.
package fence

import "strings"

// Blocks extracts the code blocks of a reply in order: fences labelled
// python, py, python3, repl, or unlabelled. Other fences (output, text,
// json, ...) and all text outside fences are prose: never executed. A
// reasoning block (<think>...</think>) is skipped. prose counts the bytes
// outside code blocks.
func Blocks(text string) (blocks []string, prose int) {
	text = stripThink(text)
	lines := strings.SplitAfter(text, "\n")
	lastProse := ""
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r\n")
		fence, lang, ok := openFence(line)
		if !ok {
			prose += len(lines[i])
			if strings.TrimSpace(line) != "" {
				lastProse = strings.TrimSpace(line)
			}
			continue
		}
		// An unlabelled fence introduced as output ("Output:", "Result:")
		// is the model's guess of what the code prints: prose, not code.
		if lang == "" && isOutputIntro(lastProse) {
			lang = "output"
		}
		lastProse = ""
		var body strings.Builder
		j := i + 1
		for ; j < len(lines); j++ {
			l := strings.TrimSpace(lines[j])
			if strings.HasPrefix(l, fence) && strings.Trim(l, "`~") == "" {
				break
			}
			body.WriteString(lines[j])
		}
		if isCodeLang(lang) {
			if strings.TrimSpace(body.String()) != "" {
				blocks = append(blocks, body.String())
			}
		} else {
			prose += body.Len()
		}
		i = j
	}
	return blocks, prose
}

func isOutputIntro(line string) bool {
	l := strings.ToLower(strings.TrimRight(line, "*_ "))
	if !strings.HasSuffix(l, ":") {
		return false
	}
	// A label ("Output:", "**Result:**", "Expected output:", "It
	// prints:"), not a sentence that mentions a result before its code.
	if len(strings.Fields(strings.Trim(l, "*_#> :"))) > 3 {
		return false
	}
	return strings.Contains(l, "output") || strings.Contains(l, "result") || strings.Contains(l, "prints")
}

func openFence(line string) (fence, lang string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return "", "", false
	}
	for _, ch := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == ch {
			n++
		}
		if n >= 3 {
			info := strings.TrimSpace(t[n:])
			if ch == '`' && strings.Contains(info, "`") {
				return "", "", false
			}
			lang, _, _ = strings.Cut(info, " ")
			return t[:n], strings.ToLower(lang), true
		}
	}
	return "", "", false
}

func isCodeLang(lang string) bool {
	switch strings.TrimPrefix(lang, "{") {
	case "", "python", "py", "python3", "repl", "starlark":
		return true
	}
	return false
}

// stripThink removes reasoning blocks (<think>...</think> and the like;
// an unclosed one runs to the end of the text). A tag inside a fenced
// block is code (or its output), kept as written: only tags outside
// fences open a reasoning block.
func stripThink(text string) string {
	var out strings.Builder
	inFence := "" // the marker of the fence the scan is in
	for text != "" {
		line, rest := text, ""
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, rest = text[:i+1], text[i+1:]
		}
		bare := strings.TrimRight(line, "\r\n")
		if inFence != "" {
			if l := strings.TrimSpace(bare); strings.HasPrefix(l, inFence) && strings.Trim(l, "`~") == "" {
				inFence = ""
			}
		} else if f, _, ok := openFence(bare); ok {
			inFence = f
		} else if i, tag := reasoningTag(line); i >= 0 {
			open, end := "<"+tag+">", "</"+tag+">"
			j := strings.Index(text[i+len(open):], end)
			if j < 0 {
				out.WriteString(text[:i])
				return out.String()
			}
			// What follows the block continues the line it opened on.
			text = text[:i] + text[i+len(open)+j+len(end):]
			continue
		}
		out.WriteString(line)
		text = rest
	}
	return out.String()
}

// reasoningTag returns the position and name of the first reasoning tag
// opening in line, or -1. A tag inside an inline code span (prose that
// mentions `<think>`) is text, not a tag.
func reasoningTag(line string) (int, string) {
	at, name := -1, ""
	for _, tag := range []string{"think", "thinking", "reasoning"} {
		open := "<" + tag + ">"
		for from := 0; ; {
			i := strings.Index(line[from:], open)
			if i < 0 {
				break
			}
			i += from
			if backtickRuns(line[:i])%2 == 0 {
				if at < 0 || i < at {
					at, name = i, tag
				}
				break
			}
			from = i + len(open)
		}
	}
	return at, name
}

// backtickRuns counts the runs of backticks in s: after an odd number, an
// inline code span is open.
func backtickRuns(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' && (i == 0 || s[i-1] != '`') {
			n++
		}
	}
	return n
}
