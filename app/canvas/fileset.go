package canvas

import (
	"sort"
	"strconv"
	"strings"
)

// FileSet is a set of files by index, held as sorted, disjoint ranges: the
// timeline's folded and pinned groups of tracks, for any number of files
// (a fleet has thousands), in a form a link carries compactly ("0-3,7").
// The zero value is the empty set; a FileSet is never changed in place.
type FileSet struct {
	spans [][2]int // [lo, hi), sorted, neither overlapping nor touching
}

// AllFiles is the set of the files 0 to n-1.
func AllFiles(n int) FileSet {
	if n <= 0 {
		return FileSet{}
	}
	return FileSet{spans: [][2]int{{0, n}}}
}

// Has says whether file f is in the set.
func (s FileSet) Has(f int) bool {
	k := sort.Search(len(s.spans), func(i int) bool { return s.spans[i][1] > f })
	return k < len(s.spans) && s.spans[k][0] <= f
}

// Len is how many files the set holds.
func (s FileSet) Len() int {
	n := 0
	for _, sp := range s.spans {
		n += sp[1] - sp[0]
	}
	return n
}

// Empty says whether the set holds no file.
func (s FileSet) Empty() bool { return len(s.spans) == 0 }

// With is the set with file f in it (in) or out of it.
func (s FileSet) With(f int, in bool) FileSet {
	if f < 0 || s.Has(f) == in {
		return s
	}
	var out [][2]int
	if in {
		out = append(append(out, s.spans...), [2]int{f, f + 1})
		return normalized(out)
	}
	for _, sp := range s.spans {
		if f < sp[0] || f >= sp[1] {
			out = append(out, sp)
			continue
		}
		if sp[0] < f {
			out = append(out, [2]int{sp[0], f})
		}
		if f+1 < sp[1] {
			out = append(out, [2]int{f + 1, sp[1]})
		}
	}
	return FileSet{spans: out}
}

// Toggle is the set with file f in it if it was out, out if it was in.
func (s FileSet) Toggle(f int) FileSet { return s.With(f, !s.Has(f)) }

// Equal says whether both sets hold the same files.
func (s FileSet) Equal(o FileSet) bool {
	if len(s.spans) != len(o.spans) {
		return false
	}
	for i := range s.spans {
		if s.spans[i] != o.spans[i] {
			return false
		}
	}
	return true
}

// String writes the set as comma-separated files and inclusive ranges of
// them, "0-3,7"; the empty set is "".
func (s FileSet) String() string {
	var b strings.Builder
	for i, sp := range s.spans {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(sp[0]))
		if sp[1]-sp[0] > 1 {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(sp[1] - 1))
		}
	}
	return b.String()
}

// ParseFileSet reads what String writes, the ranges in any order and
// possibly overlapping. It refuses anything else, and ranges beyond
// maxFiles, so that a hand-edited link cannot ask for a set it takes long
// to build.
func ParseFileSet(text string, maxFiles int) (FileSet, bool) {
	if text == "" {
		return FileSet{}, true
	}
	var spans [][2]int
	for _, part := range strings.Split(text, ",") {
		a, b, isRange := strings.Cut(part, "-")
		lo, err := strconv.Atoi(a)
		if err != nil || lo < 0 {
			return FileSet{}, false
		}
		hi := lo
		if isRange {
			if hi, err = strconv.Atoi(b); err != nil || hi < lo {
				return FileSet{}, false
			}
		}
		if hi >= maxFiles {
			return FileSet{}, false
		}
		spans = append(spans, [2]int{lo, hi + 1})
	}
	return normalized(spans), true
}

// normalized sorts spans and merges those that overlap or touch.
func normalized(spans [][2]int) FileSet {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var out [][2]int
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return FileSet{spans: out}
}
