package parser

import "watchlens/internal/word"

// hourMemo remembers the hour of the last managedFields time read at a
// position: its first 13 bytes ("2026-11-30T00") and its start in Unix
// ns. The times of a capture's events mostly share their hour, and the
// date's digits and arithmetic are then read once for many events rather
// than for each: under wasm, parsing a whole time is a noticeable part
// of reading a small event.
type hourMemo struct {
	prefix [13]byte
	start  int64
	ok     bool
}

// parse is parseTimeBytes(b).
func (h *hourMemo) parse(b []byte) (int64, bool) {
	if h.ok && len(b) >= 20 && word.Load64(b, 0) == word.Load64(h.prefix[:], 0) && word.Load64(b, 5) == word.Load64(h.prefix[:], 5) {
		// The same hour as one parseTimeBytes took in its own form:
		// with minutes, seconds and fraction in that form too, it would
		// take this one the same way.
		if rest, ok := afterHour(b); ok {
			return h.start + rest, true
		}
	}
	ns, ok := parseTimeBytes(b)
	if ok && hourForm(b) {
		if rest, rok := afterHour(b); rok {
			copy(h.prefix[:], b)
			h.start, h.ok = ns-rest, true
		}
	}
	return ns, ok
}
