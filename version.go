package rlm

import (
	"runtime/debug"
	"strings"
)

// Version describes the build: the module version and the VCS revision
// from the binary's build information, e.g.
// "version v0.3.0 (revision 912f769a1b2c, 2026-12-02T17:00:00Z, modified)".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "version unknown (no build information)"
	}
	v := "version " + bi.Main.Version
	var rev, at, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "modified"
			}
		}
	}
	if rev == "" {
		return v + " (no VCS revision), " + bi.GoVersion
	}
	parts := []string{"revision " + rev}
	for _, p := range []string{at, modified, bi.GoVersion} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return v + " (" + strings.Join(parts, ", ") + ")"
}
