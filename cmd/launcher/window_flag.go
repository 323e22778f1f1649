package launcher

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/model"
)

// modelWindowFlag is --model-window NAME=TOKENS[:MAXOUT][,vision],
// repeatable: an entry of the run's model table (rlm.Spec.ModelWindows)
// for the models whose names start with NAME; ",vision" declares that
// they take images (model.Info.Vision).
type modelWindowFlag []model.Info

func (f *modelWindowFlag) String() string {
	parts := make([]string, len(*f))
	for i, w := range *f {
		parts[i] = fmt.Sprintf("%s=%d", w.Prefix, w.Window)
		if w.MaxOutput > 0 {
			parts[i] += fmt.Sprintf(":%d", w.MaxOutput)
		}
		if w.Vision {
			parts[i] += ",vision"
		}
	}
	return strings.Join(parts, ",")
}

func (f *modelWindowFlag) Type() string { return "NAME=TOKENS[:MAXOUT][,vision]" }

// Set parses one NAME=TOKENS[:MAXOUT][,vision].
func (f *modelWindowFlag) Set(s string) error {
	s, vision := strings.CutSuffix(strings.TrimSpace(s), ",vision")
	name, size, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("want NAME=TOKENS[:MAXOUT], for example gpt-4o-mini=128000:16384")
	}
	win, out, hasOut := strings.Cut(size, ":")
	w, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(win), "_", ""))
	if err != nil || w <= 0 {
		return fmt.Errorf("the window of %s must be a positive number of tokens, not %q", name, win)
	}
	info := model.Info{Prefix: name, Window: w, Vision: vision}
	if hasOut {
		m, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(out), "_", ""))
		if err != nil || m <= 0 || m > w {
			return fmt.Errorf("the max output of %s must be a positive number of tokens no larger than its window, not %q", name, out)
		}
		info.MaxOutput = m
	}
	*f = append(*f, info)
	return nil
}
