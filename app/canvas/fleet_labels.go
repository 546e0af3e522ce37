package canvas

import (
	"strings"
	"unicode/utf8"
)

// shortenLabels gives each row whose name shares its first word with
// another row's a Short label: the fewest last words of its name, less
// those all these rows' names end with, that no other row's ends with
// the same way, behind an ellipsis (and the row's MayMixMark). The
// gutter cuts a label from the right, and the audit log's clients of one
// User-Agent differ only at the end of their names ("fleet/v0.0.0
// (linux/amd64) kubernetes/$Format configmaps lab shard=s31, informer 1
// of 2 that the log cannot tell apart"): cut, they
// all read "fleet/v0.0.0 (linux/amd6…". The words their names end with in
// common (" of 2 that the log cannot tell apart") are left out too, so
// that the short label is what tells the row apart ("⚠ …shard=s31,
// informer 1"). The browser draws Short where the label does not fit
// (Text.Short); the tooltip names the client whole. It runs once per
// analysis, with a map of substrings of the names: no name is copied.
func shortenLabels(rows []FleetRow) {
	families := map[string][]int{}
	for i := range rows {
		name := unmarked(&rows[i])
		if first, _, ok := strings.Cut(name, " "); ok {
			families[first] = append(families[first], i)
		}
	}
	// cores[i] is row i's name less its family's common last words;
	// taken counts each last-words tail of the cores, by whether the
	// row's label bears the mark, as the gutter would draw it.
	cores := make([]string, len(rows))
	var taken [2]map[string]int
	taken[0], taken[1] = map[string]int{}, map[string]int{}
	for _, members := range families {
		if len(members) < 2 {
			continue
		}
		cut := commonLastWords(rows, members)
		for _, i := range members {
			core := unmarked(&rows[i])
			core = core[:len(core)-cut]
			cores[i] = core
			for p := strings.IndexByte(core, ' '); p >= 0; p = nextSpace(core, p) {
				taken[markIndex(&rows[i])][core[p+1:]]++
			}
		}
	}
	for i := range rows {
		core := cores[i]
		for p := strings.LastIndexByte(core, ' '); p >= 0; p = strings.LastIndexByte(core[:p], ' ') {
			if taken[markIndex(&rows[i])][core[p+1:]] == 1 {
				mark := rows[i].Label[:len(rows[i].Label)-len(unmarked(&rows[i]))]
				rows[i].Short = mark + "…" + core[p+1:]
				break
			}
		}
	}
}

// nextSpace is the index of the first space of s after p, -1 if none.
func nextSpace(s string, p int) int {
	k := strings.IndexByte(s[p+1:], ' ')
	if k < 0 {
		return -1
	}
	return p + 1 + k
}

// unmarked is the row's label without MayMixMark: the client's name.
func unmarked(r *FleetRow) string { return strings.TrimPrefix(r.Label, MayMixMark) }

// markIndex is 1 for a row whose label bears MayMixMark, 0 otherwise.
func markIndex(r *FleetRow) int {
	if r.MayMix {
		return 1
	}
	return 0
}

// commonLastWords is the length, in bytes, of the last words the names
// of the rows members share (from a space on), leaving each name its
// first word and one more.
func commonLastWords(rows []FleetRow, members []int) int {
	tail := unmarked(&rows[members[0]])
	for _, i := range members[1:] {
		name := unmarked(&rows[i])
		n := 0
		for n < len(tail) && n < len(name) && tail[len(tail)-1-n] == name[len(name)-1-n] {
			n++
		}
		tail = tail[len(tail)-n:]
	}
	// The tail starts at a space both sides of which are whole words.
	for {
		p := strings.IndexByte(tail, ' ')
		if p < 0 {
			return 0
		}
		tail = tail[p:]
		if keepsTwoWords(rows, members, len(tail)) {
			return len(tail)
		}
		tail = tail[1:]
	}
}

// keepsTwoWords says whether every member's name, less its last cut
// bytes, still holds two words.
func keepsTwoWords(rows []FleetRow, members []int, cut int) bool {
	for _, i := range members {
		name := unmarked(&rows[i])
		if !strings.Contains(name[:len(name)-cut], " ") {
			return false
		}
	}
	return true
}

// nameRuneW is a letter's width in the gutter's font (web/timeline.js,
// 11 px), CSS px, sized up from the average of the fleets' names so that
// a name the gutter is widened for fits whole: only the browser knows
// the text's width, and it cuts what does not fit (Text.MaxWidth).
// namePad is the gutter's width less a name's room: a name starts 6 px
// in and ends 8 px before the plot.
const (
	nameRuneW = 7.0
	namePad   = 14.0
)

// noBookmarksMark starts the name of a client that did not ask for
// bookmarks.
const noBookmarksMark = "✗ "

// countRunes sets the row's labelRunes and shortRunes.
func (r *FleetRow) countRunes() {
	mark := 0
	if !r.Client.Bookmarks {
		mark = utf8.RuneCountInString(noBookmarksMark)
	}
	r.labelRunes, r.shortRunes = mark+utf8.RuneCountInString(r.Label), 0
	if r.Short != "" {
		r.shortRunes = mark + utf8.RuneCountInString(r.Short)
	}
}

// namesRoom is the gutter the rows' names ask for in a canvas w wide:
// the widest name whole, where it fits in fleetNamesMost, and else its
// Short, which the browser draws then; no more than fleetNamesMost.
func (d *FleetData) namesRoom(w float64) float64 {
	most, need := fleetNamesMost(w), 0.0
	for i := range d.Rows {
		r := &d.Rows[i]
		n := float64(r.labelRunes)*nameRuneW + namePad
		if n > most && r.shortRunes > 0 {
			n = float64(r.shortRunes)*nameRuneW + namePad
		}
		if need = max(need, n); need >= most {
			return most
		}
	}
	return need
}
