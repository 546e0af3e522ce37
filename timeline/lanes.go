package timeline

import (
	"bytes"
	"unsafe"

	"watchlens/internal/word"
)

// Lanes is the table of the timeline's lanes, one fixed record each: a
// capture of core/v1 Events has a lane for nearly every event, and a Lane
// of six strings is 96 bytes, its name and uid a block of the heap each.
// A record names its file, kind and namespace by one number (the lanes
// of a group share them), its labels by another, and holds its name and
// uid as a place in blocks of text the lanes share (a UUID as its 16
// bytes).
type Lanes struct {
	recs   column[laneRec]
	scopes []laneScope
	labels []string // labels[0] is "": no labels
	text   [][]byte // blocks of names and uids, each uid after its name
	// textUsed is how much of the last block of text is written: a block
	// is allocated whole, and writing a lane's text then writes no slice
	// (a pointer, which as wasm costs a write barrier while the collector
	// marks).
	textUsed int
	// long holds the names and uids too long for a record's lengths, and
	// those of the lanes past maxTextBlocks blocks.
	long []laneText

	// While building: the numbers of the scopes (scopeSlots) and label
	// sets seen, and the label set last numbered.
	scopeSlots []int32
	labelsOf   map[string]int32
	lastLabels int32
}

// laneRec is one lane, 16 bytes. Its name is nameLen bytes of
// text[at>>16] from at&0xffff, its uid the uidLen bytes after (16 bytes
// of a UUID when uidLen is packedUID), or, when nameLen is longName, both
// are long[at]. The top bit of uid is the deleted flag, the rest uidLen.
type laneRec struct {
	scope, labels int32
	at            uint32
	nameLen, uid  uint16
}

func (r laneRec) block() int     { return int(r.at >> 16) }
func (r laneRec) off() int       { return int(r.at & 0xffff) }
func (r laneRec) uidLen() uint16 { return r.uid &^ deletedBit }
func (r laneRec) deleted() bool  { return r.uid&deletedBit != 0 }

// laneScope is what the lanes of one group share.
type laneScope struct {
	file            int32
	kind, namespace string
}

type laneText struct{ name, uid string }

const (
	// textBlock is the size of a block of names and uids: a record's
	// offset into one is 16 bits, and the block's number the other 16 of
	// at, so the lanes after maxTextBlocks blocks go to long.
	textBlock     = 1 << 16
	maxTextBlocks = 1 << 16
	// longName marks a lane whose name and uid, together longer than
	// maxLaneText, are kept in long: the apiserver allows names of 253
	// bytes, a capture may hold anything.
	longName    = 1<<16 - 1
	maxLaneText = 1 << 12
	packedUID   = 1<<15 - 1
	deletedBit  = 1 << 15
)

// Len is the number of lanes.
func (ls *Lanes) Len() int { return ls.recs.n }

// At returns lane i. Its strings share the table's memory: reading a
// lane allocates nothing.
func (ls *Lanes) At(i int) Lane {
	r := ls.recs.at(i)
	sc := &ls.scopes[r.scope]
	return Lane{File: int(sc.file), Kind: sc.kind, Namespace: sc.namespace, Name: ls.name(r),
		Labels: ls.labels[r.labels], Deleted: r.deleted()}
}

// UID is lane i's uid, "" when its events had none. A UUID is made into
// text again on each call: the detail of one object asks for it, no loop
// over the lanes does.
func (ls *Lanes) UID(i int) string {
	r := ls.recs.at(i)
	if r.nameLen == longName {
		return ls.long[r.at].uid
	}
	uid := ls.text[r.block()][r.off()+int(r.nameLen):]
	if r.uidLen() == packedUID {
		return formatUUID(uid)
	}
	return unsafe.String(unsafe.SliceData(uid), int(r.uidLen()))
}

// uidKey is what the table keeps of lane i's uid, as uidIndex keys it:
// its 16 bytes (packed) when it is a UUID, else its text. It reads the
// table's memory, and allocates only for a lane kept in long.
func (ls *Lanes) uidKey(i int) (key []byte, packed bool) {
	r := ls.recs.at(i)
	if r.nameLen == longName {
		return uidKey(make([]byte, 0, uuidBytes), ls.long[r.at].uid)
	}
	uid := ls.text[r.block()][r.off()+int(r.nameLen):]
	if r.uidLen() == packedUID {
		return uid[:uuidBytes:uuidBytes], true
	}
	return uid[:r.uidLen():r.uidLen()], false
}

// hasUID says whether lane i's uid is uid.
func (ls *Lanes) hasUID(i int32, uid string) bool {
	var buf [uuidBytes]byte
	key, packed := uidKey(buf[:], uid)
	k, p := ls.uidKey(int(i))
	return p == packed && bytes.Equal(k, key)
}

// Scopes calls fn with the kind and namespace of each group of lanes
// that share their file, kind and namespace: what the lanes hold of
// these, each pair at least once, without a walk over every lane.
func (ls *Lanes) Scopes(fn func(kind, namespace string)) {
	for _, sc := range ls.scopes {
		fn(sc.kind, sc.namespace)
	}
}

// Scope numbers lane i's group of lanes, those of one file, kind and
// namespace, from 0 to ScopeCount()-1: what a loop over many lanes keys
// them by, where a map by the three would be slow as wasm.
func (ls *Lanes) Scope(i int) int { return int(ls.recs.at(i).scope) }

// ScopeCount is the number of groups of lanes Scope numbers.
func (ls *Lanes) ScopeCount() int { return len(ls.scopes) }

// File is lane i's file, for a loop over many lanes or events that needs
// no more of the lane.
func (ls *Lanes) File(i int) int { return int(ls.scopes[ls.recs.at(i).scope].file) }

// Kind is lane i's object kind, as File is its file.
func (ls *Lanes) Kind(i int) string { return ls.scopes[ls.recs.at(i).scope].kind }

// name returns a record's name.
func (ls *Lanes) name(r laneRec) string {
	if r.nameLen == longName {
		return ls.long[r.at].name
	}
	// The bytes of a block are written once, before any string of them
	// is made, and appending to the block writes past them.
	return unsafe.String(unsafe.SliceData(ls.text[r.block()][r.off():]), int(r.nameLen))
}

// add appends a lane of file, with labels (its first event's, "" for
// none), and returns its number; uuid is uid's 16 bytes when uid is a
// UUID (as appendUUID reads it), else nil.
func (ls *Lanes) add(file int, kind, namespace, name, uid string, uuid []byte, labels string) int32 {
	if ls.labelsOf == nil {
		ls.labelsOf = map[string]int32{"": 0}
		ls.labels = []string{""}
	}
	id := ls.scopeNumber(laneScope{file: int32(file), kind: kind, namespace: namespace})
	r := laneRec{scope: id}
	if labels != "" {
		r.labels = ls.labelsID(labels)
	}
	n := len(name) + len(uid)
	last := len(ls.text) - 1
	full := last < 0 || ls.textUsed+n > textBlock
	if n > maxLaneText || full && len(ls.text) == maxTextBlocks {
		r.at, r.nameLen = uint32(len(ls.long)), longName
		ls.long = append(ls.long, laneText{name, uid})
	} else {
		if full {
			ls.text = append(ls.text, make([]byte, textBlock))
			ls.textUsed = 0
			last++
		}
		b := ls.text[last][ls.textUsed:]
		r.at, r.nameLen = uint32(last)<<16|uint32(ls.textUsed), uint16(len(name))
		copy(b, name)
		if uuid != nil {
			copy(b[len(name):], uuid)
			r.uid = packedUID
		} else {
			r.uid = uint16(len(uid))
			copy(b[len(name):], uid)
		}
		ls.textUsed += len(name) + len(uid)
		if uuid != nil {
			ls.textUsed += len(uuid) - len(uid)
		}
	}
	ls.recs.add(r)
	return int32(ls.recs.n - 1)
}

// scopeNumber returns sc's number in scopes, appending it when it is
// new. scopeSlots is an open-addressing table of the numbers (1 + a
// scope, 0 for an empty slot; a power of two long, at most half full),
// hashed by the scope's namespace, which is what tells most scopes
// apart: a new object's lane looks its scope up, and as wasm a Go map
// keyed by two strings is several times slower. (Not by the
// namespace's address: the parser keeps an object's namespace with its
// name and uid, so each new object's namespace is a string of its own.)
func (ls *Lanes) scopeNumber(sc laneScope) int32 {
	if 2*(len(ls.scopes)+1) > len(ls.scopeSlots) {
		ls.scopeSlots = make([]int32, max(2*len(ls.scopeSlots), 16))
		for k := range ls.scopes {
			ls.scopeSlots[ls.scopeFree(ls.scopes[k])] = int32(k) + 1
		}
	}
	mask := uint64(len(ls.scopeSlots) - 1)
	for i := scopeHash(sc) & mask; ; i = (i + 1) & mask {
		k := ls.scopeSlots[i]
		if k == 0 {
			ls.scopes = append(ls.scopes, sc)
			ls.scopeSlots[i] = int32(len(ls.scopes))
			return int32(len(ls.scopes) - 1)
		}
		if s := &ls.scopes[k-1]; s.file == sc.file && sameString(s.namespace, sc.namespace) && sameString(s.kind, sc.kind) {
			return k - 1
		}
	}
}

// scopeFree returns the first empty slot of scopeSlots from sc's.
func (ls *Lanes) scopeFree(sc laneScope) uint64 {
	mask := uint64(len(ls.scopeSlots) - 1)
	i := scopeHash(sc) & mask
	for ls.scopeSlots[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// scopeHash hashes a scope's file and namespace (FNV-1a, then mixed so
// that its low bits, which pick the slot, depend on every byte).
func scopeHash(sc laneScope) uint64 {
	h := uint64(14695981039346656037) ^ uint64(sc.file)
	for i := 0; i < len(sc.namespace); i++ {
		h = (h ^ uint64(sc.namespace[i])) * 1099511628211
	}
	h ^= h >> 33
	h *= word.Mul1
	h ^= h >> 33
	return h
}

// numbered returns v's number in vals, appending it to vals (and its
// number to ids) when it is new.
func numbered[K comparable](ids map[K]int32, vals *[]K, v K) int32 {
	n, ok := ids[v]
	if !ok {
		n = int32(len(*vals))
		*vals = append(*vals, v)
		ids[v] = n
	}
	return n
}

// deleted says whether a DELETED has closed lane id.
func (ls *Lanes) deleted(id int32) bool { return ls.recs.at(int(id)).deleted() }

// setDeleted marks lane id closed by a DELETED.
func (ls *Lanes) setDeleted(id int32) {
	r := ls.recs.at(int(id))
	r.uid |= deletedBit
	ls.recs.set(int(id), r)
}

// hasLabels says whether lane id's labels are labels, the same string:
// most events carry their object's labels unchanged, and the parser
// interns them. It is inlined where setLabels, which compares their
// bytes, is a call at every event.
func (ls *Lanes) hasLabels(id int32, labels string) bool {
	return sameAddress(ls.labels[ls.recs.at(int(id)).labels], labels)
}

// sameAddress says a and b are one string, the same bytes in memory.
func sameAddress(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// sameString is a == b, comparing the strings' addresses first: for
// strings the parser interns, as wasm, the runtime's comparison is a
// call even when they are one.
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// setLabels gives lane id the labels of its latest event that has any.
func (ls *Lanes) setLabels(id int32, labels string) {
	r := ls.recs.at(int(id))
	// Most events carry their object's labels unchanged, and the parser
	// interns them: the comparison is of two pointers.
	if ls.labels[r.labels] == labels {
		return
	}
	r.labels = ls.labelsID(labels)
	ls.recs.set(int(id), r)
}

// labelsID numbers a set of labels. A new object's labels are mostly
// the last new set's, the same string (the parser interns them).
func (ls *Lanes) labelsID(labels string) int32 {
	if !sameString(ls.labels[ls.lastLabels], labels) {
		ls.lastLabels = numbered(ls.labelsOf, &ls.labels, labels)
	}
	return ls.lastLabels
}

// renumber returns the table with lane order[k] as lane k (nil: in
// the order they are), done building.
func (ls *Lanes) renumber(order []int32, pace *pacer) Lanes {
	recs := ls.recs
	if order != nil {
		recs = ls.recs.permute(order, pace)
	}
	return Lanes{recs: recs, scopes: ls.scopes, labels: ls.labels, text: ls.text, long: ls.long}
}

// Lane is one object in one file. A DELETED closes it; a re-created
// object (new uid, or same name after a delete when the capture has no
// uids) opens a new lane. Its events are Timeline.LaneEvents, their span
// Timeline.LaneSpan. Lanes.At reads a Lane from the compact table the
// Timeline keeps (see lanes.go); its uid is Lanes.UID.
type Lane struct {
	File                  int
	Kind, Namespace, Name string
	// Labels are the object's labels as its latest event carrying any gave
	// them (parser.Event.Labels form: "k=v" pairs sorted by key,
	// comma-joined).
	Labels  string
	Deleted bool
}
