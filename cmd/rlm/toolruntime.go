package main

import (
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/tool"
)

// toolSession is a tool runtime opened from toolFlags: the built-in
// workspace tools, the granted capabilities and authority tier, and (when an
// effectful tool is granted) the durable effect journal.
type toolSession struct {
	Registry *tool.Registry
	Runtime  *tool.Runtime
	Caps     capability.Set
	closers  []func()
}

// open builds the tool runtime for a command that runs tools. The journal is
// opened only when the granted capabilities include an effectful tool.
func (f *toolFlags) open() (*toolSession, error) {
	caps, err := capability.NewSet(splitCaps(f.allow)...)
	if err != nil {
		return nil, err
	}
	tier, err := authority.ParseTier(f.authority)
	if err != nil {
		return nil, err
	}
	reg, ws, err := openRegistry(f.workspace)
	if err != nil {
		return nil, err
	}
	s := &toolSession{Registry: reg, Caps: caps, closers: []func(){func() { ws.Close() }}}
	cfg := tool.Config{Authority: authority.NewStore()}
	for _, sc := range reg.Schemas() {
		if sc.Effect == tool.EffectRead || !caps.Has(capability.Tool(sc.Name)) {
			continue
		}
		dir := f.stateDir
		if dir == "" {
			if dir, err = effect.DefaultStateDir(); err != nil {
				s.Close()
				return nil, err
			}
		}
		j, err := effect.OpenDir(dir)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.closers = append(s.closers, func() { j.Close() })
		cfg.Journal = j
		break
	}
	if err := cfg.Authority.Set(cliAuthorityContext, tier); err != nil {
		s.Close()
		return nil, err
	}
	s.Runtime = tool.NewRuntime(reg, cfg)
	return s, nil
}

// Close releases the workspace and the journal.
func (s *toolSession) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}
