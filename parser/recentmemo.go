package parser

// The labels and the owner references of an object mostly equal those of
// recent events' objects: the pods of one ReplicaSet share both, and a
// capture interleaves many ReplicaSets' pods. fastMemo.recent holds
// recent ones, found by a hash of their first recentLen bytes: where
// a value found there is at the read position, the walk would end after
// it (a container's walk reads no byte past its close), and it is skipped
// by a comparison.

// The kinds of fastMemo.recent's values (see fieldsByShape.set).
const (
	recentLabels = iota
	recentOwners
)

// recentLen is how much of a value's beginning tells it from others of
// its kind: an owner reference's name ends within it. maxRecent bounds
// the values held: 512 of them take at most 256 KiB.
const (
	recentLen = 64
	maxRecent = 512
)

// skipRecent skips the value of kind at the read position, found in
// fastMemo.recent or walked, and then held there if it is an object or an array
// short enough. It returns the value's bytes.
func (s *fastScanner) skipRecent(kind int) ([]byte, bool) {
	s.ws()
	start := s.i
	if s.memo == nil || start >= len(s.b) || (s.b[start] != '{' && s.b[start] != '[') {
		if !s.skip() {
			return nil, false
		}
		return s.b[start:s.i], true
	}
	set, tag := s.memo.recent.set(s.b, start, recentLen, kind, s.tab.seed)
	if n := set.find(tag, s.b, start); n > 0 {
		s.i += n
		return s.b[start:s.i], true
	}
	if !s.skip() {
		return nil, false
	}
	v := s.b[start:s.i]
	if len(v) <= maxRecent {
		set.put(tag, v)
	}
	return v, true
}
