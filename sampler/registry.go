package sampler

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// The registry maps names to samplers. Each family registers its names
// from its package's init (sampler/all imports every family of boa), and
// a user's own sampler registers the same way from the user's package, so
// that a study file, boa run, the server and a stored study reopened by
// study.Open find it by name (examples/custom-sampler).
var (
	registryMu sync.RWMutex
	registry   = map[string]func() Sampler{}
	aliases    = map[string]string{} // old name → registered name
)

// Register makes the sampler that factory returns available under name
// (matched without regard to case) to New, Check and Names. factory must
// return a new instance on every call: each study gets its own. Like
// database/sql.Register, it panics when name is empty or taken or factory
// is nil, mistakes that show at the program's start.
func Register(name string, factory func() Sampler) {
	key := strings.ToLower(name)
	registryMu.Lock()
	defer registryMu.Unlock()
	switch _, taken := registry[key]; {
	case key == "" || factory == nil:
		panic("sampler: Register needs a name and a factory")
	case taken || aliases[key] != "":
		panic(fmt.Sprintf("sampler: Register called twice for %q", name))
	}
	registry[key] = factory
}

// RegisterAlias makes old another name of the sampler registered as name,
// for a sampler whose name changed: studies stored under old still open.
// New(old) returns New(name)'s sampler; Names lists name only. It panics
// when old is taken.
func RegisterAlias(old, name string) {
	old, name = strings.ToLower(old), strings.ToLower(name)
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, taken := registry[old]; taken || aliases[old] != "" || old == "" {
		panic(fmt.Sprintf("sampler: RegisterAlias: %q is taken", old))
	}
	aliases[old] = name
}

// Names lists the registered sampler names, sorted, without aliases.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New returns a new instance of the sampler registered under name (or an
// alias of it).
func New(name string) (Sampler, error) {
	key := strings.ToLower(name)
	registryMu.RLock()
	if to, ok := aliases[key]; ok {
		key = to
	}
	mk, ok := registry[key]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown sampler %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return mk(), nil
}

// MultiObjectiveNames lists the registered samplers that model several
// objectives (MultiObjective), sorted: those a multi-objective study takes.
func MultiObjectiveNames() []string {
	var out []string
	for _, n := range Names() {
		if s, err := New(n); err == nil {
			if _, ok := s.(MultiObjective); ok {
				out = append(out, n)
			}
		}
	}
	return out
}
