// Package fence extracts the code blocks of a model's reply in code mode.
// Its input is untrusted model output; it never fails, and what it does not
// recognize as code is prose.
package fence

import "strings"

// Blocks extracts the code blocks of a reply in order: fences labelled
// python, py, python3, repl, or unlabelled. Other fences (output, text,
// json, ...) and all text outside fences are prose: never executed. What
// a reader of the rendered reply would not see as code is not code either:
// a reasoning block (<think>...</think>) and an HTML comment (<!-- ... -->,
// the model's way of commenting code out) are skipped, and a fence whose
// body starts with a fence line quotes Markdown (a 4-backtick fence
// showing a ```python block) and is prose. prose counts the bytes outside
// code blocks.
func Blocks(text string) (blocks []string, prose int) {
	text = stripHidden(text)
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
		if isCodeLang(lang) && !quotesMarkdown(body.String()) {
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

// quotesMarkdown reports whether a fence's body starts (after blank
// lines) with a fence line: the block shows Markdown, fences included,
// and its text is not Python (a line of backticks is a syntax error).
func quotesMarkdown(body string) bool {
	for line := range strings.Lines(body) {
		l := strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if _, _, ok := openFence(l); ok {
			return true
		}
		l = strings.TrimLeft(l, " ")
		return strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~")
	}
	return false
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

func openFence(line string) (fence, lang string, ok bool) { return fenceOpen(0, line) }

// fenceOpen is openFence for a line after indent spaces kept elsewhere
// (the line goes on after a hidden region).
func fenceOpen(indent int, line string) (fence, lang string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if indent+len(line)-len(t) > 3 {
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

// stripHidden removes what a rendered reply does not show: reasoning
// blocks (<think>...</think>, <thinking>, <reasoning>) and HTML comments
// (<!-- ... -->), each running to the end of the text when unclosed. A
// tag or comment opener inside a fenced block is code (or its output),
// kept as written, and one inside an inline code span (prose that
// mentions `<think>` or `<!--`) is text: only those in prose open a
// hidden region. A comment ends at the first "-->" after "<!--" ("<!-->"
// and "<!--->" are empty comments, as in HTML and CommonMark). A comment
// that starts a line (after at most 3 spaces: an HTML block in CommonMark)
// takes the rest of the line it ends on with it, so no fence opens there.
// Text after a reasoning block, or after a comment that opened mid-line,
// continues the line the region opened on; that line opens a fence only
// when nothing but its indentation came before the region.
//
// The scan is linear in the text: each byte is looked at a bounded number
// of times, however many regions a reply holds.
func stripHidden(text string) string {
	var out strings.Builder
	out.Grow(len(text))
	inFence := "" // the marker of the fence the scan is in
	// The state of the line being built from what is kept: while only its
	// indentation (pend spaces, at most 3) was kept, it may still open a
	// fence; ticks counts its backtick runs (odd: an inline code span is
	// open), lastTick that it ends with a backtick.
	pend, blank, ticks, lastTick := 0, true, 0, false
	newLine := func() { pend, blank, ticks, lastTick = 0, true, 0, false }
	flush := func() {
		out.WriteString("   "[:pend])
		pend = 0
	}
	lineEnd := func(i int) int {
		if k := strings.IndexByte(text[i:], '\n'); k >= 0 {
			return i + k + 1
		}
		return len(text)
	}
	for i := 0; i < len(text); {
		if inFence != "" {
			end := lineEnd(i)
			if l := strings.TrimSpace(strings.TrimRight(text[i:end], "\r\n")); strings.HasPrefix(l, inFence) && strings.Trim(l, "`~") == "" {
				inFence = ""
			}
			out.WriteString(text[i:end])
			i = end
			continue
		}
		if blank && mayOpenFence(text[i:]) {
			end := lineEnd(i)
			if f, _, ok := fenceOpen(pend, strings.TrimRight(text[i:end], "\r\n")); ok {
				inFence = f
				flush()
				out.WriteString(text[i:end])
				newLine()
				i = end
				continue
			}
		}
		// The rest of the line up to a hidden region, or to its end.
		h, open, closer, t, lt := hiddenIn(text[i:], ticks, lastTick)
		if open == "" {
			flush()
			out.WriteString(text[i : i+h])
			newLine()
			i += h
			continue
		}
		if kept := text[i : i+h]; blank && pend+len(kept) <= 3 && strings.Trim(kept, " ") == "" {
			pend += len(kept)
		} else if kept != "" {
			flush()
			out.WriteString(kept)
			blank, ticks, lastTick = false, t, lt
		}
		from := i + h + len(open)
		if open == commentOpen {
			from = i + h + 2 // "<!-->" and "<!--->" close themselves
		}
		j := strings.Index(text[from:], closer)
		if j < 0 {
			return out.String()
		}
		i = from + j + len(closer)
		if open == commentOpen && blank {
			// An HTML block: the rest of its last line, and the
			// indentation before it, are part of it.
			i = lineEnd(i)
			newLine()
		}
	}
	flush()
	return out.String()
}

// mayOpenFence reports whether s starts with at most 3 spaces and three
// backticks or tildes: a cheap test before looking at the whole line.
func mayOpenFence(s string) bool {
	s = s[:min(len(s), 6)]
	t := strings.TrimLeft(s, " ")
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

const commentOpen, commentEnd = "<!--", "-->"

// reasoningTags are the openers and closers of reasoning blocks.
var reasoningTags = [][2]string{{"<think>", "</think>"}, {"<thinking>", "</thinking>"}, {"<reasoning>", "</reasoning>"}}

// hiddenIn scans s, the rest of a line and the text after it, up to the
// first hidden region opening outside an inline code span: it returns
// the region's position, opener and closer, or, when the line has none,
// the length of the line (its newline included) and an empty opener.
// ticks and lastTick describe the line's text before s; the returned t
// and lt describe it up to the region.
func hiddenIn(s string, ticks int, lastTick bool) (at int, open, closer string, t int, lt bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return i + 1, "", "", ticks, lastTick
		case '`':
			if !lastTick {
				ticks++
			}
		case '<':
			if ticks%2 != 0 {
				break
			}
			rest := s[i:]
			if strings.HasPrefix(rest, commentOpen) {
				return i, commentOpen, commentEnd, ticks, lastTick
			}
			for _, tag := range reasoningTags {
				if strings.HasPrefix(rest, tag[0]) {
					return i, tag[0], tag[1], ticks, lastTick
				}
			}
		}
		lastTick = s[i] == '`'
	}
	return len(s), "", "", ticks, lastTick
}
