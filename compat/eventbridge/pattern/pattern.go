package pattern

import "sync"

// Pattern is a compiled, validated event pattern. It is immutable and safe for concurrent use.
type Pattern struct {
	source   string
	branches []*subRule
	paths    *pathTable
	events   sync.Pool // of *flatEvent sized for paths
}

// Parse validates and compiles one event pattern given as JSON text. A pattern that
// EventBridge would reject yields an *InvalidPatternError carrying AWS's message.
func Parse(pattern string) (*Pattern, error) {
	drafts, err := compilePattern(pattern)
	if err != nil {
		return nil, err
	}
	p := &Pattern{source: pattern, paths: newPathTable()}
	p.branches = toSubRules(drafts, p.paths)
	n := p.paths.len()
	p.events.New = func() any { return newFlatEvent(n) }
	return p, nil
}

// String returns the pattern text as given to Parse.
func (p *Pattern) String() string { return p.source }

// Match reports whether event, a JSON object, matches the pattern. The error is non-nil only
// when event is not valid JSON or not an object.
func (p *Pattern) Match(event []byte) (bool, error) {
	ev := p.events.Get().(*flatEvent)
	defer func() {
		ev.release()
		p.events.Put(ev)
	}()
	if err := flatten(event, p.paths, ev); err != nil {
		return false, err
	}
	for _, r := range p.branches {
		if r.matches(ev) {
			return true, nil
		}
	}
	return false, nil
}
