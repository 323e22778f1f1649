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

func stripThink(text string) string {
	for _, tag := range []string{"think", "thinking", "reasoning"} {
		open, end := "<"+tag+">", "</"+tag+">"
		for {
			i := strings.Index(text, open)
			if i < 0 {
				break
			}
			j := strings.Index(text[i:], end)
			if j < 0 {
				text = text[:i]
				break
			}
			text = text[:i] + text[i+j+len(end):]
		}
	}
	return text
}
