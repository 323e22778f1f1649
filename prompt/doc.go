// Package prompt is the prompt compiler: it decides, per turn, which units
// (tools, skills, instructions, resources, MCP servers, tools and prompts)
// of a large trusted catalog the model sees, explains why, and packs them
// into a hard token budget with package pack. It never grants authority:
// invocation still goes through the tool runtime.
//
// A Catalog is built once from unit Specs (NewCatalog); tools enter it as
// data through ImportTools, which yields ordinary Specs. Catalog.Compile
// takes an Input (text, signals, needs, host-selected and host-denied units)
// and Options (capabilities, discovery scope, candidate limit, mode, packing
// policy) and returns a Compiled projection: selected and rejected units
// with reasons, dependency edges, the active units, the provider tool
// schemas, the rendered instruction text, the token ledger and a
// fingerprint of the material inputs. Compiled.Explain reports why one unit
// is or is not visible; Catalog.Search is bounded metadata discovery.
//
// Activation policy is not packing policy: activation "always" decides
// selection (the unit needs no evidence and is exempt from the candidate
// limit, untrusted negation and relevance-ranked conflicts), while
// mandatory_context decides whether the packer may omit a selected unit.
// Registered ≠ available ≠ active ≠ authorized. See docs/prompt-compiler.md.
package prompt
