package tool

import "github.com/rlm-go/rlm/capability"

// View returns a registry holding only the tools of r that caps grants
// (tool:NAME, or a granted tool:*), sharing their compiled schemas and
// handlers. It is how a narrower caller, such as a child agent, is shown
// and offered only its own tools; the runtime still checks capabilities
// on every call. Tools registered into r later are not in the view.
func (r *Registry) View(caps capability.Set) *Registry {
	v := NewRegistry()
	r.mu.RLock()
	defer r.mu.RUnlock()
	for name, e := range r.tools {
		if caps.Has(e.schema.Capability) {
			v.tools[name] = e
		}
	}
	return v
}
