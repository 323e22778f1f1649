package prompt

import (
	"github.com/rlm-go/rlm/fault"
)

// KindInvalidSkillUnit: a unit of a skill catalog is not a skill with a
// body (kind skill, non-empty content).
const KindInvalidSkillUnit fault.Kind = "invalid_skill_unit"

// DecodeSkillCatalog builds a skill catalog: a catalog file ({"units":
// [...]}, the same unit format) whose units are all of kind skill with a
// body (content, the instruction text the child sees) and which imports no
// tools. Activation, dependencies, conflicts, supersession and packing
// apply to its units as to any other.
func DecodeSkillCatalog(data []byte) (*Catalog, error) {
	f, err := DecodeCatalogFile(data)
	if err != nil {
		return nil, err
	}
	if len(f.Tools) > 0 {
		return nil, fault.New(PhaseCatalog, KindInvalidSkillUnit, "a skill catalog imports no tools")
	}
	cat, err := f.Build()
	if err != nil {
		return nil, err
	}
	for _, u := range cat.units {
		if u.Kind != KindSkill || u.Content == "" {
			return nil, fault.New(PhaseCatalog, KindInvalidSkillUnit, "every unit of a skill catalog is a skill with a body (content)").
				With("unit", string(u.ID))
		}
	}
	return cat, nil
}

// SkillID returns the unit id of the skill named name.
func SkillID(name string) UnitID { return UnitID(string(KindSkill) + ":" + name) }
