package prompt

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/tool"
)

// Imported tool triggers: the tool's name as a keyword and each alias as a
// keyword.
const (
	ImportNameWeight  = 40
	ImportAliasWeight = 20
	// DefaultImportCategory is the category of imported tools.
	DefaultImportCategory = "local_tool"
	// ImportProvenance marks units created by ImportTools.
	ImportProvenance = "tool_registry"
)

// ToolSchema is a tool as a registry describes it: data only, never a
// handler. Capability becomes the unit's requires_capability. Effect
// ("read", "write", ...) is validated as a token and kept for the caller;
// it does not influence visibility, since authority stays with the tool
// runtime.
type ToolSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Capability  string          `json:"capability"`
	Effect      string          `json:"effect"`
}

// ImportOptions shape imported units.
type ImportOptions struct {
	// AlwaysVisibleTools marks the named tools activation always. This is
	// the only way to pin imported tools, and it goes through the ordinary
	// unit field: there is no second registry and no built-in list.
	AlwaysVisibleTools []string `json:"always_visible_tools"`
	// Category of every imported unit; "" means local_tool.
	Category string `json:"category"`
	// Aliases per tool name.
	Aliases map[string][]string `json:"aliases"`
}

// ImportTools turns tool schemas into ordinary unit specs: id tool:NAME,
// activation relevant unless named in AlwaysVisibleTools, the schema's
// description, keyword triggers for the name (weight 40) and each alias
// (weight 20), requires_capability from the schema, provenance
// tool_registry. The specs go into NewCatalog like any other. Naming an
// unknown tool in the options fails with unknown_tool; two schemas with one
// name fail with duplicate_unit.
func ImportTools(tools []ToolSchema, opts ImportOptions) ([]Spec, error) {
	specs, _, err := importTools(tools, opts)
	return specs, err
}

// importTools is ImportTools that also returns the normalized units, so a
// catalog build does not normalize them twice.
func importTools(tools []ToolSchema, opts ImportOptions) ([]Spec, []Unit, error) {
	byName := make(map[string]bool, len(tools))
	for _, t := range tools {
		name := strings.TrimSpace(t.Name)
		if byName[name] {
			return nil, nil, fault.New(PhaseImport, KindDuplicateUnit, "two tool schemas share a name").With("unit", "tool:"+textcut.Prefix(name, 200))
		}
		byName[name] = true
	}
	always := map[string]bool{}
	for _, n := range opts.AlwaysVisibleTools {
		if !byName[n] {
			return nil, nil, fault.New(PhaseImport, tool.KindUnknownTool, "always_visible_tools names a tool that is not imported").With("tool", textcut.Prefix(n, 200))
		}
		always[n] = true
	}
	for _, n := range slices.Sorted(maps.Keys(opts.Aliases)) {
		if !byName[n] {
			return nil, nil, fault.New(PhaseImport, tool.KindUnknownTool, "aliases names a tool that is not imported").With("tool", textcut.Prefix(n, 200))
		}
	}
	category := opts.Category
	if category == "" {
		category = DefaultImportCategory
	}
	prov, _ := json.Marshal(ImportProvenance)
	specs := make([]Spec, 0, len(tools))
	units := make([]Unit, 0, len(tools))
	for _, t := range tools {
		name := strings.TrimSpace(t.Name)
		if eff := strings.TrimSpace(t.Effect); eff != "" && !validToken(eff, 64) {
			return nil, nil, fault.New(PhaseImport, tool.KindInvalidSchema, "effect must be a token").With("tool", textcut.Prefix(name, 200))
		}
		aliases := opts.Aliases[name]
		triggers := []Trigger{{Keyword: name, Weight: ImportNameWeight}}
		for _, a := range aliases {
			triggers = append(triggers, Trigger{Keyword: a, Weight: ImportAliasWeight})
		}
		s := Spec{
			Unit:               "tool:" + name,
			Category:           category,
			Description:        t.Description,
			Aliases:            slices.Clone(aliases),
			Triggers:           triggers,
			RequiresCapability: t.Capability,
			Schema:             &Schema{Name: name, Description: t.Description, Parameters: t.Parameters},
			Provenance:         prov,
		}
		if always[name] {
			s.Activation = Always
		}
		// Validate now so that import errors name the import phase.
		u, err := Normalize(s)
		if err != nil {
			fe := fault.As(err)
			return nil, nil, fault.Wrap(err, PhaseImport, fe.Kind, "imported tool is not a valid unit").With("tool", textcut.Prefix(name, 200))
		}
		specs = append(specs, s)
		units = append(units, u)
	}
	return specs, units, nil
}

// ImportCatalog imports every tool of a tool inventory (a *tool.Registry):
// its public schemas, never its handlers, through ImportTools.
func ImportCatalog(cat tool.Inventory, opts ImportOptions) ([]Spec, error) {
	schemas := cat.Schemas()
	tools := make([]ToolSchema, len(schemas))
	for i, sc := range schemas {
		tools[i] = ToolSchema{Name: sc.Name, Description: sc.Description, Parameters: sc.Arguments,
			Capability: string(sc.Capability), Effect: string(sc.Effect)}
	}
	return ImportTools(tools, opts)
}

// CatalogFile is the JSON catalog format: units, tool schemas to import
// and the import options.
type CatalogFile struct {
	Units  []Spec        `json:"units"`
	Tools  []ToolSchema  `json:"tools"`
	Import ImportOptions `json:"import"`
	// Synonyms are the host's synonym groups (CatalogOptions.Synonyms).
	Synonyms [][]string `json:"synonyms,omitempty"`
}

// DecodeCatalogFile decodes a catalog file strictly.
func DecodeCatalogFile(data []byte) (CatalogFile, error) {
	var f CatalogFile
	if err := decodeStrict(data, &f, PhaseCatalog, KindInvalidUnitSpec); err != nil {
		return CatalogFile{}, err
	}
	return f, nil
}

// Build imports the tools and builds the catalog from the units and the
// imported specs.
func (f CatalogFile) Build() (*Catalog, error) {
	_, imported, err := importTools(f.Tools, f.Import)
	if err != nil {
		return nil, err
	}
	units := make([]Unit, 0, len(f.Units)+len(imported))
	for _, s := range f.Units {
		u, err := Normalize(s)
		if err != nil {
			return nil, err
		}
		units = append(units, u)
	}
	return newCatalog(append(units, imported...), CatalogOptions{Synonyms: f.Synonyms})
}
