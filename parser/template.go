package parser

import (
	"bytes"
	"math/bits"

	"watchlens/internal/word"
)

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
	ok   bool
	b    []byte     // the metadata, from its '{' to its '}'
	vars []metaVar  // the strings cut out, in order
	all  []metaVar  // every string noted by the walk, skipped ones included
	f    metaResult // what the walk made of the rest
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
	// roleEnd marks, in metadataTemplated, the template's end.
	roleEnd = -3
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
	tp.vars = tp.vars[:0]
	for _, v := range na {
		if v.role != roleSkipped || v.varies {
			tp.vars = append(tp.vars, v)
		}
	}
	tp.ok = true
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
// found and takeTemplated takes.
type templateStrings struct{ name, namespace, uid, rv []byte }

// matchTemplate reads the metadata at the read position as the template,
// if it fits: the read position moves past it, t gets its times and ts
// its strings, which nothing holds yet; where it does not fit, none of
// them is written. The metadata read holds no raw line end where it fits and
// the template has none (metaTemplate.nl): its fixed bytes are the
// template's, and a string with one does not fit. It is one loop without
// calls but for long fixed bytes and what it hands a time to: under wasm
// a call costs more than comparing a few words of a template's fixed
// bytes in place.
func (s *fastScanner) matchTemplate(tp *metaTemplate, ts *templateStrings, t *fastTimes) bool {
	b, i := s.b, s.i
	tb := tp.b
	var name, namespace, uid, rv, creation, deletion []byte
	prev := 0
	var at, managed int64
	entry := -1
	vars := tp.vars
	for k := 0; ; k++ {
		// The fixed bytes up to the next string, or to the end.
		to, role := len(tb), roleEnd
		var v *metaVar
		if k < len(vars) {
			v = &vars[k]
			to, role = v.off, v.role
		}
		n := to - prev
		if len(b)-i < n {
			return false
		}
		if n > inlineEqualMax {
			// Long, as a pod's fieldsV1 are, or natively: the call is
			// worth it.
			if !equalBytes(b[i:i+n], tb[prev:to]) {
				return false
			}
		} else if n >= 8 {
			// A word at a time, the last word overlapping the one before.
			p, q, last := i, prev, i+n-8
			for p < last {
				if word.Load64(b, p) != word.Load64(tb, q) {
					return false
				}
				p, q = p+8, q+8
			}
			if word.Load64(b, last) != word.Load64(tb, to-8) {
				return false
			}
		} else {
			for d := range n {
				if b[i+d] != tb[prev+d] {
					return false
				}
			}
		}
		i += n
		if role == roleEnd {
			break
		}
		prev = v.off + v.n
		// The string's end: its quote. A string the walk skips may hold
		// escapes, passed over as stringEnd does; one it reads may not.
		// A raw line end, which no string the caller hands over holds,
		// does not fit (see above).
		j := i
		for {
			if j+8 <= len(b) {
				x := word.Load64(b, j)
				q, bs, nl := x^(lsb*'"'), x^(lsb*'\\'), x^(lsb*'\n')
				m := ((q-lsb)&^q | (bs-lsb)&^bs | (nl-lsb)&^nl) & msb
				if m == 0 {
					j += 8
					continue
				}
				j += bits.TrailingZeros64(m) >> 3
			} else {
				for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] != '\n' {
					j++
				}
				if j >= len(b) {
					return false
				}
			}
			if b[j] == '"' {
				break
			}
			if role != roleSkipped || b[j] == '\n' || j+1 < len(b) && b[j+1] == '\n' {
				return false
			}
			j += 2
		}
		if role == roleSkipped {
			i = j
			continue
		}
		val := b[i:j]
		i = j
		switch role {
		case mName:
			name = val
		case mNamespace:
			namespace = val
		case mUID:
			uid = val
		case mRV:
			rv = val
		case mCreation:
			creation = val
		case mDeletion:
			deletion = val
		case roleTime:
			if v.entry != entry {
				managed = max(managed, at)
				entry, at = v.entry, 0
			}
			at = s.memo.managedTime(v.entry, val)
		}
	}
	t.managed = max(managed, at)
	t.creation, t.deletion = creation, deletion
	s.i = i
	*ts = templateStrings{name: name, namespace: namespace, uid: uid, rv: rv}
	return true
}

// takeTemplated fills f with what matchTemplate found: the strings ts,
// copied or interned, and what the template's walk made of the rest.
func (s *fastScanner) takeTemplated(tp *metaTemplate, ts *templateStrings, f *fields) {
	if ts.rv != nil {
		f.rv, f.rvNum, f.rvParsed = s.rvString(ts.rv)
	}
	f.labels, f.labelsID, f.initialEventsEnd = tp.f.labels, tp.f.labelsID, tp.f.initialEventsEnd
	s.identity(f, ts.uid, ts.name, ts.namespace)
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
