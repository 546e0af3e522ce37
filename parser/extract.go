package parser

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/tidwall/gjson"
)

// fields are what one value yields, before it becomes an Event.
type fields struct {
	hasType, hasObject bool
	// notObject is what the object is when it is not a JSON object
	// ("null", "a string"...), "" when it is one or there is none.
	notObject string
	// notObjectRaw is that value, as written.
	notObjectRaw     string
	typ              string
	hasKind          bool
	kind, apiVersion string
	namespace, name  string
	uid, rv          string
	// rvParsed says that rvNum is the value of rv, a decimal number
	// below 10^18 without a leading zero, as the fast extraction reads
	// it on its way: emit then need not parse it again.
	rvParsed bool
	rvNum    uint64
	labels   string // the raw JSON of metadata.labels, "" when absent
	// labelsID is the intern table's number of labels where the fast
	// extraction interned them, else 0 (see Reader.canonicalLabels).
	labelsID         uint32
	initialEventsEnd bool
	estimated        int64
	code             int
	reason, message  string
}

// extractGJSON is the reference extraction: each field is what gjson
// gives for its path, where a key that repeats in an object gives its last
// value (see lastGet). Any faster extraction must agree with it.
func extractGJSON(b []byte, f *fields) {
	*f = fields{}
	top := gjson.ParseBytes(b)
	t := lastGet(top, "type")
	f.hasType, f.typ = t.Exists(), t.String()
	o := lastGet(top, "object")
	f.hasObject = o.Exists()
	if f.hasObject && !o.IsObject() {
		f.notObject, f.notObjectRaw = jsonTypeName(o), o.Raw
	}
	obj := top
	if f.hasObject {
		obj = o
	}
	objectFields(obj, f)
}

// jsonTypeName names the type of a JSON value, with its article.
func jsonTypeName(v gjson.Result) string {
	switch {
	case v.Type == gjson.Null:
		return "null"
	case v.Type == gjson.String:
		return "a string"
	case v.Type == gjson.Number:
		return "a number"
	case v.Type == gjson.True || v.Type == gjson.False:
		return "a boolean"
	case v.IsArray():
		return "an array"
	}
	return "not JSON"
}

// lastGet returns the value of key in the object v: the last one when the
// key repeats, as Go's encoding/json and Kubernetes decode it (gjson's Get
// gives the first).
func lastGet(v gjson.Result, key string) gjson.Result {
	var last gjson.Result
	if v.IsObject() {
		v.ForEach(func(k, val gjson.Result) bool {
			if k.Str == key {
				last = val
			}
			return true
		})
	}
	return last
}

func objectFields(obj gjson.Result, f *fields) {
	get := func(p string) gjson.Result { return lastGet(obj, p) }
	k := get("kind")
	f.hasKind, f.kind = k.Exists(), k.String()
	f.apiVersion = get("apiVersion").String()
	m := get("metadata")
	mget := func(p string) gjson.Result { return lastGet(m, p) }
	f.namespace = mget("namespace").String()
	f.name = mget("name").String()
	f.uid = mget("uid").String()
	// A number's String is its value reformatted (1.5e3 is "1500"): the
	// resourceVersion is kept as sent.
	if rv := mget("resourceVersion"); rv.Type == gjson.Number {
		f.rv = rv.Raw
	} else {
		f.rv = rv.String()
	}
	f.labels = mget("labels").Raw
	f.initialEventsEnd = lastGet(mget("annotations"), "k8s.io/initial-events-end").String() == "true"
	if mf := mget("managedFields"); mf.IsArray() {
		for _, e := range mf.Array() {
			if ns, ok := parseTime(lastGet(e, "time").String()); ok && ns > f.estimated {
				f.estimated = ns
			}
		}
	}
	if f.estimated == 0 {
		f.estimated, _ = parseTime(mget("deletionTimestamp").String())
	}
	if f.estimated == 0 {
		f.estimated, _ = parseTime(mget("creationTimestamp").String())
	}
	if f.kind == "Status" || f.typ == "ERROR" {
		f.code = int(get("code").Int())
		f.reason = get("reason").String()
		f.message = get("message").String()
	}
}

// parseTime parses a metav1.Time (RFC 3339, 1 s resolution) to Unix ns;
// a time outside MinTime..MaxTime is no time.
func parseTime(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0, false
	}
	return UnixNano(t)
}

func (f *fields) status() *Status {
	st := &Status{Code: f.code, Reason: f.reason, Message: f.message}
	m := f.message
	if strings.Contains(m, tooOldMark) {
		st.X, st.Y, st.TooOld = versionsOf(tooOld(m))
	} else if strings.Contains(m, tooLargeMark) {
		st.X, st.Y, st.TooLarge = versionsOf(versionPair(m, tooLargeMark, ", current: ", ""))
	}
	return st
}

// The messages of a 410's and a 504's Status that name two resource
// versions: "too old resource version: RV (OLDEST)" and "Too large
// resource version: RV, current: CURRENT".
const (
	tooOldMark   = "too old resource version: "
	tooLargeMark = "Too large resource version: "
)

// versionPair reads the two resource versions a message names after
// mark: the digits that follow it, then sep, the second's digits and end.
// second is "" when the message does not go on so.
func versionPair(m, mark, sep, end string) (first, second string) {
	i := strings.Index(m, mark)
	if i < 0 {
		return "", ""
	}
	first, rest := leadingDigits(m[i+len(mark):])
	rest, ok := strings.CutPrefix(rest, sep)
	if !ok {
		return first, ""
	}
	second, rest = leadingDigits(rest)
	if second == "" || !strings.HasPrefix(rest, end) {
		return first, ""
	}
	return first, second
}

// leadingDigits splits s after its leading decimal digits.
func leadingDigits(s string) (digits, rest string) {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return s[:n], s[n:]
}

// versionsOf is the two resource versions versionPair read as numbers,
// and whether both are.
func versionsOf(first, second string) (x, y uint64, ok bool) {
	x, errX := strconv.ParseUint(first, 10, 64)
	y, errY := strconv.ParseUint(second, 10, 64)
	if errX != nil || errY != nil {
		return 0, 0, false
	}
	return x, y, true
}

// onJSON turns one top-level JSON value into an event, a session Status, a
// list's events or a diagnostic. pieces maps a value gathered from several
// pieces back to the stream (nil for a value read in one piece).
func (r *Reader) onJSON(v []byte, start, end int64, line int, arrival int64, pieces []pieceMark) {
	stop, early, interned := extractFast(v, &r.fields, r.intern, &r.memo)
	// A second "object" after the stop would replace the first (see
	// fast.go).
	if interned && early && hasObjectKey(v[stop:]) {
		interned = false
	}
	if !interned {
		extractGJSON(v, &r.fields)
	}
	r.onFields(&r.fields, v, start, end, line, arrival, interned, pieces)
}

// onFields makes the event of the fields read from v. interned says that
// the strings kept are the Reader's copies already (the fast extraction
// interns as it reads), so the map lookups, slow under wasm where strings
// are hashed without AES, need not be done twice. pieces is onJSON's.
func (r *Reader) onFields(f *fields, v []byte, start, end int64, line int, arrival int64, interned bool, pieces []pieceMark) {
	if typ, ok := f.watchType(); ok {
		r.emit(f, typ, v, start, end, line, arrival, interned)
		return
	}
	sess := r.curSession()
	var typ EventType
	if f.notObject != "" {
		what := "value"
		if f.hasType {
			what = clipString(f.typ) + " event"
		}
		if f.notObject == "null" {
			r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagNullObject,
				Msg: fmt.Sprintf("the object of this %s is null; it is skipped", what)})
			return
		}
		r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagNotObject,
			Msg: fmt.Sprintf("the object of this %s is %s, %s, not a Kubernetes object (a JSON object); it is skipped", what, f.notObject, clipString(f.notObjectRaw))})
		return
	}
	if !f.hasType {
		switch {
		case f.hasObject:
			r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagNoType,
				Msg: "this event has an object but no type; it is skipped"})
			return
		case f.kind == "Status":
			sess.Status = f.status()
			return
		case !f.hasKind:
			r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagNotEvent,
				Msg: "this JSON value is neither a watch event (type and object) nor a Kubernetes object (kind); it is skipped"})
			return
		case strings.HasSuffix(f.kind, "List") && r.body.mode != modeYAML && r.onList(v, start, line, arrival, pieces, true):
			// Read as a list. YAML documents are read for their own
			// fields only, so a YAML list stays one object.
			return
		}
		typ = Observed
	} else {
		typ = ParseEventType(f.typ)
		// Observed and Listed name what the reader makes of values with
		// no type, never a type on the wire.
		if typ == TypeUnknown || typ == Observed || typ == Listed {
			r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagBadType,
				Msg: fmt.Sprintf("unknown event type %q; the event is skipped", clipString(f.typ))})
			return
		}
		if !f.hasObject {
			r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagNoObject,
				Msg: fmt.Sprintf("this %s event has no object; it is skipped", typ)})
			return
		}
	}
	r.emit(f, typ, v, start, end, line, arrival, interned)
}

// watchType returns the type of the watch event whose fields are f, and
// true, where onFields emits it as it stands: an event of a type sent on
// the wire, whose object is a JSON object.
func (f *fields) watchType() (EventType, bool) {
	if f.notObject != "" || !f.hasType || !f.hasObject {
		return TypeUnknown, false
	}
	typ := ParseEventType(f.typ)
	return typ, typ != TypeUnknown && typ != Observed && typ != Listed
}

// emit queues the event of type typ made of the fields f read from v.
func (r *Reader) emit(f *fields, typ EventType, v []byte, start, end int64, line int, arrival int64, interned bool) {
	sess := r.curSession()
	kind, apiVersion, namespace, name, uid := f.kind, f.apiVersion, f.namespace, f.name, f.uid
	var identity uint32
	if interned {
		identity = r.memo.identity
	} else {
		kind, apiVersion = r.internString(kind), r.internString(apiVersion)
		namespace, name, uid = r.internString(namespace), r.internString(name), r.internString(uid)
	}
	offset, length, bodyOffset := start, end-start, int64(0)
	if r.decoding {
		d := r.frame.dec
		offset, length, bodyOffset = d.sessOffset, d.pieceEnd-d.sessOffset, start
	}
	// The API server parses a resourceVersion as a uint64, but it is an
	// etcd revision, an int64: a larger one is no revision a cluster
	// reaches (and 2^64-1 is what consumers may take for none).
	n, err := f.rvNum, error(nil)
	if !f.rvParsed {
		n, err = strconv.ParseUint(f.rv, 10, 64)
	}
	outOfRange := err != nil && errors.Is(err, strconv.ErrRange) || err == nil && n > math.MaxInt64
	rvValid := err == nil && !outOfRange
	if !rvValid {
		n = 0
		if typ >= Added && typ <= Bookmark || typ == Listed {
			why := "is not a decimal number"
			if outOfRange {
				why = fmt.Sprintf("is out of range: etcd revisions, which resourceVersions are, stop at %d", int64(math.MaxInt64))
			}
			r.addDiag(Diagnostic{Offset: start, Line: line, Kind: DiagBadRV,
				Msg: fmt.Sprintf("the resourceVersion %q of this %s event %s; the event is kept without one", clipString(f.rv), typ, why)})
		}
	}
	var status *Status
	if typ == Error {
		status = f.status()
	}
	// Built where it is queued, in one go: under wasm each copy or
	// clearing of its 216 bytes is a call out of the module.
	r.queue = append(r.queue, queued{raw: v, ev: Event{
		Seq: r.seq, Session: sess.Index, Offset: offset, Length: length, Type: typ,
		Kind: kind, APIVersion: apiVersion, Namespace: namespace, Name: name, UID: uid,
		Labels: r.canonicalLabels(f.labels, f.labelsID),
		RV:     f.rv, RVNum: n, RVValid: rvValid,
		Identity: identity, Arrival: arrival, Estimated: f.estimated, InitialEventsEnd: f.initialEventsEnd,
		Status: status, Encoded: r.decoding, BodyOffset: bodyOffset,
	}})
	r.seq++
	sess.Events++
}

// setBegan sets Began, the arrival of the event's first byte, on the
// watch events queued since the Reader's seq was seq, where both times
// are known and differ.
func (r *Reader) setBegan(seq int, began int64) {
	if began == 0 {
		return
	}
	for k := len(r.queue) - 1; k >= 0 && r.queue[k].ev.Seq >= seq; k-- {
		if ev := &r.queue[k].ev; ev.Type != Listed && ev.Arrival != began && ev.Arrival != 0 {
			ev.Began = began
		}
	}
}

func clipString(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// canonicalLabels turns the raw JSON of metadata.labels into Event.Labels.
// An object's labels repeat event after event, byte for byte, so the answer
// is kept per raw form and most events cost one map lookup. id is the
// intern table's number of raw, or 0: labels interned are found by their
// number first, without the map, whose hashing and comparison go a byte
// at a time under wasm (the pods of many workloads, whose labels differ
// from the last event's). Without labels it is inlined.
func (r *Reader) canonicalLabels(raw string, id uint32) string {
	if raw == "" {
		return ""
	}
	return r.canonicalOf(raw, id)
}

// canonicalOf is canonicalLabels of labels.
func (r *Reader) canonicalOf(raw string, id uint32) string {
	// Mostly the same interned string as the last event's: its address
	// says so without the comparison, which under wasm goes a byte at a
	// time.
	if last := r.lastLabels[0]; len(raw) == len(last) && (unsafe.StringData(raw) == unsafe.StringData(last) || raw == last) {
		return r.lastLabels[1]
	}
	byID := &r.labelsByID[id%uint32(len(r.labelsByID))]
	if id != 0 && byID.id == id {
		r.lastLabels = [2]string{raw, byID.canon}
		return byID.canon
	}
	c, ok := r.labels[raw]
	if !ok {
		// A key that repeats has its last value, as the API server
		// decodes it.
		last := make(map[string]string)
		gjson.Parse(raw).ForEach(func(k, v gjson.Result) bool {
			last[k.String()] = v.String()
			return true
		})
		// Sorted by key, as the API server's and kubectl's selectors
		// print a label set: sorting whole "k=v" pairs would put
		// "app.kubernetes.io/name=web" before "app=web" ('.' < '=').
		keys := make([]string, 0, len(last))
		for k := range last {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		pairs := make([]string, len(keys))
		for i, k := range keys {
			pairs[i] = k + "=" + last[k]
		}
		c = r.internString(strings.Join(pairs, ","))
		r.labels[strings.Clone(raw)] = c
	}
	r.lastLabels = [2]string{raw, c}
	if id != 0 {
		*byID = labelsByID{id, c}
	}
	return c
}

// labelsByID is a canonical form of labels kept by the intern table's
// number of their raw form (Reader.labelsByID).
type labelsByID struct {
	id    uint32
	canon string
}
