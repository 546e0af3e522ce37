package parser

import "bytes"

// A small object's metadata mostly repeats the last event's byte for
// byte but for a few strings: its name, uid, resourceVersion, times. As
// wasm, walking it key by key was most of the time of reading a small
// event. metaTemplate is the metadata last walked after a remembered
// envelope (fromHead), with those strings cut out: an event whose
// metadata has the same bytes around strings of its own, none with an
// escape, is read by comparing the bytes and finding each string's end.
// The walk would go the same way over it: its keys, and every value but
// those strings, are the same bytes, and what it does with the strings
// (take them, parse a time) depends on nothing else. What the walk made
// of the rest (the labels, the initial-events-end annotation) is kept.
// The memos the walk would update (managedFields' entries, fieldsV1) are
// left as they are: they only ever skip bytes found equal, so what they
// hold changes no answer.
//
// The strings of the values the walk skips (the owner references, the
// keys of fieldsV1, a managedFields entry's manager) matter to it only by
// where they end: a Lease names its holder in both. Those that differed
// between the last two templates are cut out too, escapes and all, and
// matched by finding their end as the walk does.
type metaTemplate struct {
	ok bool
	b  []byte // the metadata, from its '{' to its '}'
	// spans are the strings cut out, in order, as matchSpans takes them
	// (templateSpan): the metadata's strings the walk reads, and those of
	// values it skips that differed between the last two templates.
	// found is where matchSpans puts the strings it finds, a start and an
	// end in each slot; times are the managedFields times' slots.
	spans []uint64
	found []int
	times []templateTime
	all   []metaVar  // every string noted by the walk, skipped ones included
	f     metaResult // what the walk made of the rest
	// nl says that b holds a raw line end.
	nl bool
	// misses counts the events in a row that did not fit; past
	// maxTemplateMisses the template is not tried for skip events: for
	// skipTemplate events, and twice as many each time again until one
	// fits, up to maxSkipTemplate (pause is the next skip, 0 for
	// skipTemplate).
	misses, skip, pause int
	// spareB and spareAll hold the template before last, whose memory
	// the next one takes.
	spareB   []byte
	spareAll []metaVar
}

// metaVar is a string of the metadata: b[off:off+n], whose use is role.
type metaVar struct {
	off, n int
	role   int  // a metadata key's index (mName...mDeletion), roleTime or roleSkipped
	entry  int  // for roleTime, the managedFields entry
	varies bool // for roleSkipped, it differed between two templates
}

const (
	// roleTime marks a managedFields entry's "time".
	roleTime = -1
	// roleSkipped marks a string of a value that the walk skips.
	roleSkipped = -2
)

type metaResult struct {
	labels           string
	labelsID         uint32
	initialEventsEnd bool
}

const (
	maxTemplate       = 4 << 10
	maxTemplateMisses = 8
	skipTemplate      = 256
	maxSkipTemplate   = 4096
)

// metaRecorder gathers a template while metadata walks.
type metaRecorder struct {
	start int // where the metadata starts in the scanner's bytes
	vars  []metaVar
	seen  uint32 // the metadata keys seen, by index: one repeated spoils it
	bad   bool
}

// key notes metadata key idx; a repeated one makes the walk no template.
func (r *metaRecorder) key(idx int) {
	if idx == mOther {
		return
	}
	if r.seen&(1<<idx) != 0 {
		r.bad = true
	}
	r.seen |= 1 << idx
}

// str notes the string that ends before s.i, read for role.
func (r *metaRecorder) str(s *fastScanner, v []byte, role, entry int) {
	if r == nil {
		return
	}
	r.vars = append(r.vars, metaVar{off: s.i - 1 - len(v) - r.start, n: len(v), role: role, entry: entry})
}

// skipped notes the strings of b[from:to], a value the walk skipped. A
// quote outside a string starts one there, as the skipping walks have it.
func (r *metaRecorder) skipped(b []byte, from, to int) {
	if to-r.start > maxTemplate {
		return // too long to be kept
	}
	for i := from; i < to; i++ {
		if b[i] != '"' {
			continue
		}
		end := stringEnd(b, i+1)
		r.vars = append(r.vars, metaVar{off: i + 1 - r.start, n: end - 2 - i, role: roleSkipped})
		i = end - 1
	}
}

// keep makes b, the metadata just walked, whose strings are all, the
// template. Where the last template (if hadTemplate) has the same bytes
// around the same strings, a skipped string that differs from its own,
// or did before, is cut out.
func (tp *metaTemplate) keep(b []byte, all []metaVar, f metaResult, hadTemplate bool) {
	nb := append(tp.spareB[:0], b...)
	na := append(tp.spareAll[:0], all...)
	if hadTemplate && sameShape(tp.b, tp.all, nb, na) {
		for k := range na {
			o, v := &tp.all[k], &na[k]
			if v.role == roleSkipped {
				v.varies = o.varies || !equalBytes(tp.b[o.off:o.off+o.n], nb[v.off:v.off+v.n])
			}
		}
	}
	tp.spareB, tp.spareAll = tp.b, tp.all
	tp.b, tp.all, tp.f = nb, na, f
	tp.nl = bytes.IndexByte(nb, '\n') >= 0
	tp.spans, tp.times = tp.spans[:0], tp.times[:0]
	slots := slotTimes
	for _, v := range na {
		if v.role == roleSkipped && !v.varies {
			continue
		}
		slot := v.role
		switch v.role {
		case roleSkipped:
			slot = slotSkipped
		case roleTime:
			slot = slots
			slots++
			tp.times = append(tp.times, templateTime{slot: slot, entry: v.entry})
		}
		tp.spans = append(tp.spans, templateSpan(v, slot))
	}
	if cap(tp.found) < 2*slots {
		tp.found = make([]int, 2*slots)
	}
	tp.found = tp.found[:2*slots]
	// A metadata key the template lacks has no string: its slot's start
	// stays -1 (see matchTemplate).
	for k := range slotSkipped {
		tp.found[2*k] = -1
	}
	tp.ok = true
}

// The slots of found (metaTemplate): one for each metadata key read as a
// string, at its index (mName...mDeletion), one where the strings of
// skipped values go, unread, and one for each managedFields time after.
const (
	slotSkipped = mDeletion + 1
	slotTimes   = slotSkipped + 1
)

// templateTime is a managedFields time's slot of found, and its entry.
type templateTime struct{ slot, entry int }

// spanSkipped marks, in a templateSpan, a string of a value that the walk
// skips, which may hold escapes.
const spanSkipped = 1 << 63

// templateSpan packs v for matchSpans: its offset in the template in bits
// 0-31, its length in bits 32-47, the slot of found that gets it in bits
// 48-62, and spanSkipped for a string the walk skips. (A template is at
// most maxTemplate bytes.)
func templateSpan(v metaVar, slot int) uint64 {
	sp := uint64(v.off) | uint64(v.n)<<32 | uint64(slot)<<48
	if v.role == roleSkipped {
		sp |= spanSkipped
	}
	return sp
}

// fits notes an event that fit the template.
func (tp *metaTemplate) fits() { tp.misses, tp.pause = 0, 0 }

// sameShape says whether metadata a, whose strings are av, and b, whose
// strings are bv, have the same bytes around strings of the same roles.
func sameShape(a []byte, av []metaVar, b []byte, bv []metaVar) bool {
	if len(av) != len(bv) {
		return false
	}
	pa, pb := 0, 0
	for k := range av {
		x, y := av[k], bv[k]
		if x.role != y.role || x.entry != y.entry || !equalBytes(a[pa:x.off], b[pb:y.off]) {
			return false
		}
		pa, pb = x.off+x.n, y.off+y.n
	}
	return equalBytes(a[pa:], b[pb:])
}

// metadataTemplated reads the metadata at the read position as the
// template, if it fits, into f and t. It writes f and t only when it
// fits: the caller then need not keep them to put them back.
func (s *fastScanner) metadataTemplated(tp *metaTemplate, f *fields, t *fastTimes) bool {
	var ts templateStrings
	if !s.matchTemplate(tp, &ts, t) {
		return false
	}
	s.takeTemplated(tp, &ts, f)
	return true
}

// templateStrings are the strings of the metadata that matchTemplate
// found and takeTemplated takes, and the key of their object, probed for
// in the intern table.
type templateStrings struct {
	rv       []byte
	identity identityKey
}

// matchTemplate reads the metadata at the read position as the template,
// if it fits: the read position moves past it, t gets its times and ts
// its strings, which nothing holds yet, and its object's key, probed for
// in the intern table (probeIdentity); where it does not fit, none of
// them is written. The metadata read holds no raw line end where it fits and
// the template has none (metaTemplate.nl): its fixed bytes are the
// template's, and a string with one does not fit. matchSpans compares
// the bytes and finds the strings' ends, each into its slot of found:
// what is left here is taking the strings from their slots and parsing
// the times, without a loop over every string with a switch on its role,
// which under wasm cost as much as matchSpans' loop.
func (s *fastScanner) matchTemplate(tp *metaTemplate, ts *templateStrings, t *fastTimes) bool {
	found := tp.found
	end := matchSpans(s.b, s.i, tp.b, tp.spans, found)
	if end < 0 {
		return false
	}
	b := s.b
	var at, managed int64
	entry := -1
	for _, tt := range tp.times {
		if tt.entry != entry {
			managed = max(managed, at)
			entry, at = tt.entry, 0
		}
		at, _ = s.memo.hourAt(tt.entry).parse(b[found[2*tt.slot]:found[2*tt.slot+1]])
	}
	t.managed = max(managed, at)
	t.creation, t.deletion = foundString(b, found, mCreation), foundString(b, found, mDeletion)
	s.i = end
	ts.rv = foundString(b, found, mRV)
	s.probeIdentity(&ts.identity, foundString(b, found, mUID), foundString(b, found, mName), foundString(b, found, mNamespace))
	return true
}

// foundString is the string of b that matchSpans found in slot, nil where
// the template has none.
func foundString(b []byte, found []int, slot int) []byte {
	if found[2*slot] < 0 {
		return nil
	}
	return b[found[2*slot]:found[2*slot+1]]
}

// takeTemplated fills f with what matchTemplate found: the strings ts,
// copied or interned, and what the template's walk made of the rest.
func (s *fastScanner) takeTemplated(tp *metaTemplate, ts *templateStrings, f *fields) {
	if ts.rv != nil {
		f.rv, f.rvNum, f.rvParsed = s.rvString(ts.rv)
	}
	f.labels, f.labelsID, f.initialEventsEnd = tp.f.labels, tp.f.labelsID, tp.f.initialEventsEnd
	s.takeIdentity(f, &ts.identity)
}

// metadataFromHead reads the metadata after a remembered envelope: as the
// template, if it fits, else walked, and the walk kept as the next
// template. Where maxTemplateMisses events in a row were walked (a pod's
// metadata differs from the last pod's in more than strings, or is too
// long to be kept), a template is neither tried nor made for
// skipTemplate events, and after each such run again twice as many, up
// to maxSkipTemplate: making one costs the walk more (its walk takes
// every key of managedFields, past the entries' memos), and with 8 walks
// after each 256 events skipped, 3 % of the realistic pods' events were
// walked so.
func (s *fastScanner) metadataFromHead(tp *metaTemplate, f *fields, t *fastTimes) bool {
	start := s.i
	if tp.skip > 0 {
		tp.skip--
	} else {
		if tp.ok {
			if s.metadataTemplated(tp, f, t) {
				tp.fits()
				return true
			}
		}
		if tp.misses++; tp.misses >= maxTemplateMisses {
			tp.pause = min(max(2*tp.pause, skipTemplate), maxSkipTemplate)
			tp.misses, tp.skip = 0, tp.pause
		}
	}
	if tp.skip > 1 {
		return s.metadata(f, t)
	}
	rec := &s.memo.rec
	*rec = metaRecorder{start: start, vars: rec.vars[:0]}
	s.rec = rec
	ok := s.metadata(f, t)
	s.rec = nil
	hadTemplate := tp.ok
	tp.ok = false
	if ok && !rec.bad && s.i-start <= maxTemplate {
		tp.keep(s.b[start:s.i], rec.vars, metaResult{labels: f.labels, labelsID: f.labelsID, initialEventsEnd: f.initialEventsEnd}, hadTemplate)
	}
	return ok
}
