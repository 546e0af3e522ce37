package parser

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzEventStream reads whole watch streams of up to maxStreamEvents
// events, generated from a few bytes of shape (streamShape), and holds
// every event to encoding/json's decoding of the line it came from. The
// other fuzz targets read a value or a few events; some of the Reader's
// state fills only over hundreds of events: the shared blocks that
// resourceVersions are copied into (rvString), and the intern table,
// whose generations age and whose slots are taken again (internTable).
// pieces are the sizes of the reads that hand the stream to the Reader,
// and of the chunks of its HTTP responses.
func FuzzEventStream(f *testing.F) {
	for _, seed := range streamSeeds {
		f.Add(seed.shape.bytes(), seed.pieces)
	}
	f.Fuzz(func(t *testing.T, shape, pieces []byte) {
		s := decodeStreamShape(shape)
		checkStream(t, s.generate(pieces), s, pieces)
	})
}

// streamSeeds are FuzzEventStream's seeds, which every go test of the
// package reads.
var streamSeeds = []struct {
	shape  streamShape
	pieces []byte
}{
	// Hundreds of resourceVersions of 17 digits, then of 17 and 18: a
	// block of them fills to 16 or 17 bytes left, which the next one
	// does not fit in.
	{streamShape{Events: 300, RVDigitsMin: 16, RVDigitsMax: 16, Objects: 300, Seed: 1}, nil},
	{streamShape{Events: 600, RVDigitsMin: 16, RVDigitsMax: 17, Objects: 50, Repeat: 128, Seed: 2}, nil},
	// A watch of every kind through HTTP sessions that 410s end, read
	// in pieces and chunks of their sizes, with bookmarks.
	{streamShape{Events: 800, RVDigitsMin: 2, RVDigitsMax: 8, OddRV: 4, Objects: 120, Repeat: 160, Namespaces: 6, Kinds: 0x3f,
		Labels: 200, Bookmarks: 12, Errors: 3, InternLimit: 4, Framing: 7, PieceScale: 1, Seed: 3}, []byte{0, 7, 200, 13, 255, 1}},
	// Long names, objects without uids, names with escapes, odd
	// resourceVersions of 1 to 20 digits, in an intern table that ages
	// every few events.
	{streamShape{Events: 700, RVDigitsMin: 0, RVDigitsMax: 19, OddRV: 40, Objects: 400, Repeat: 100, Namespaces: 40, Kinds: 0x19,
		NameExtra: 250, NoUID: 60, Labels: 90, Bookmarks: 20, Errors: 8, Escapes: 20, InternLimit: 1, Framing: 2, PieceScale: 2, Seed: 4}, []byte{3, 90, 17}},
	// Distinct objects past a generation of the intern table, which
	// grows its slots before it ages, and objects seen again after it.
	{streamShape{Events: 2500, RVDigitsMin: 5, RVDigitsMax: 7, Objects: 2300, Repeat: 30, Namespaces: 3, Kinds: 0x05,
		Labels: 30, Bookmarks: 2, InternLimit: 7, Seed: 5}, nil},
}

// maxStreamEvents bounds a stream: one read with its checks stays within
// tens of milliseconds.
const maxStreamEvents = 3000

// streamShape is what FuzzEventStream's stream is made of. Its bytes
// (bytes) are the fuzzed input: every value of each field makes a
// stream. The fields "in 256" are chances out of 256.
type streamShape struct {
	Events uint16 // events, 1 to maxStreamEvents
	// RVDigitsMin and RVDigitsMax bound the resourceVersions' lengths:
	// each one is 1 to 20 digits (the value modulo 20, plus 1).
	RVDigitsMin, RVDigitsMax uint8
	OddRV                    uint8  // in 256: a resourceVersion with a leading zero, empty, with a letter, or a JSON number
	Objects                  uint16 // the objects the events are of, 1 to 4096
	Repeat                   uint8  // in 256: an event is of one of the objects of the last few events, else of the next object in turn
	Namespaces               uint8  // one less than the objects' namespaces
	Kinds                    uint8  // a bit for each of streamKinds, ConfigMap for none
	NameExtra                uint8  // up to as many bytes longer, an object's name
	NoUID                    uint8  // in 256: an object without a uid
	Labels                   uint8  // in 256: an object with labels
	Bookmarks                uint8  // in 256
	Errors                   uint8  // in 256: an ERROR event (a 410, 504 or 500)
	Escapes                  uint8  // in 256: an object whose name is written with a \u escape
	InternLimit              uint8  // the strings of a generation of the intern table, one of streamInternLimits
	// Framing: bit 0, HTTP responses with chunked bodies, a new one
	// after each ERROR, else bare NDJSON; bit 1, read in pieces, else
	// from a bytes.Reader (in place where its lines are long); bit 2,
	// chunks of the pieces' sizes, else one per event.
	Framing    uint8
	PieceScale uint8 // pieces are (p+1) << (PieceScale%4*3) bytes
	Seed       uint64
}

// streamInternLimits are the sizes of the intern table's generations:
// the Reader's own, and smaller ones, which age within a stream (a
// table of 4096 slots grows before it ages at 2100 and 3000).
var streamInternLimits = [...]int{internLimit, 8, 16, 40, 100, 256, 1000, 2100, 3000}

func (s streamShape) bytes() []byte {
	b, err := binary.Append(nil, binary.LittleEndian, s)
	if err != nil {
		panic(err)
	}
	return b
}

func decodeStreamShape(b []byte) streamShape {
	var s streamShape
	full := make([]byte, binary.Size(s))
	copy(full, b)
	if _, err := binary.Decode(full, binary.LittleEndian, &s); err != nil {
		panic(err)
	}
	return s
}

// streamKinds are the kinds of the objects: ConfigMap, Lease, Event,
// Pod, Node (of no namespace) and a custom resource.
var streamKinds = [...]struct {
	kind, apiVersion string
	namespaced       bool
}{
	{"ConfigMap", "v1", true},
	{"Lease", "coordination.k8s.io/v1", true},
	{"Event", "v1", true},
	{"Pod", "v1", true},
	{"Node", "v1", false},
	{"Widget", "example.com/v1alpha1", true},
}

// streamObject is an object of a stream.
type streamObject struct {
	kind     int
	created  int // the event that created it
	alive    bool
	gen      int // how many times it was created
	labels   int // its label set, -1 for none
	noUID    bool
	escape   bool
	nameTail int // the bytes added to its name
}

// stream is a generated capture and what it holds.
type stream struct {
	in []byte
	// lines are the events' JSON, at starts in the capture; sessions
	// their sessions.
	lines    [][]byte
	starts   []int
	sessions []int
	// nSessions is the sessions of the capture: 1, or its HTTP
	// responses.
	nSessions int
	// headers bounds the strings of each session's HTTP head that the
	// Reader interns (its headers' names).
	headers int
}

// streamAt is the time of the event i, as the API server writes it:
// 37 seconds after the one before, so that a stream's times pass many
// hours, which the Reader remembers one at a time (hourMemo).
func streamAt(i int) string {
	return time.Unix(1795996800+37*int64(i), 0).UTC().Format(time.RFC3339)
}

// streamManagers are the managers of the objects' first managedFields
// entry: more than the fast path remembers (maxManagers).
var streamManagers = [...]string{"controller", "helm", "kubectl-client-side-apply", "argocd-controller", "kube-controller-manager",
	"kustomize-controller", "cert-manager", "external-secrets", "policy-agent", "operator", "terraform"}

// generate writes the stream of s; pieces are the chunks' sizes, where
// Framing says so.
func (s streamShape) generate(pieces []byte) *stream {
	rng := rand.New(rand.NewPCG(s.Seed, uint64(s.Events)<<32|uint64(s.Objects)))
	chance := func(in256 uint8) bool { return rng.IntN(256) < int(in256) }
	n := 1 + int(s.Events)%maxStreamEvents
	lo, hi := 1+int(s.RVDigitsMin)%20, 1+int(s.RVDigitsMax)%20
	if hi < lo {
		lo, hi = hi, lo
	}
	var kinds []int
	for k := range streamKinds {
		if s.Kinds&(1<<k) != 0 {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		kinds = []int{0}
	}
	objects := make([]streamObject, 1+int(s.Objects)%4096)
	for i := range objects {
		o := &objects[i]
		o.kind, o.labels = kinds[rng.IntN(len(kinds))], -1
		if chance(s.Labels) {
			o.labels = rng.IntN(8)
		}
		o.noUID, o.escape = chance(s.NoUID), chance(s.Escapes)
		if s.NameExtra > 0 && rng.IntN(2) == 0 {
			o.nameTail = rng.IntN(int(s.NameExtra) + 1)
		}
	}
	namespaces := 1 + int(s.Namespaces)
	http, chunked := s.Framing&1 != 0, s.Framing&4 != 0 && len(pieces) > 0

	st := &stream{nSessions: 1}
	if http {
		st.headers = 10
	}
	// The lines are written one after the other into text, and kept as
	// its slices: what a growth of text leaves behind stays as written.
	var out, body, text bytes.Buffer
	out.Grow(n * 700)
	text.Grow(n * 600)
	lastRV := "1"
	rv := func() (string, bool) {
		digits := lo + rng.IntN(hi-lo+1)
		b := make([]byte, digits)
		b[0] = '1' + byte(rng.IntN(9))
		for k := 1; k < digits; k++ {
			b[k] = '0' + byte(rng.IntN(10))
		}
		quoted := true
		if !chance(s.OddRV) {
			// The ERROR events name it.
			lastRV = string(b)
		} else {
			switch rng.IntN(4) {
			case 0:
				b[0] = '0'
			case 1:
				b = b[:0]
			case 2:
				b[rng.IntN(len(b))] = "a-+ "[rng.IntN(4)]
			case 3:
				quoted = false
			}
		}
		return string(b), quoted
	}
	writeRV := func(b *bytes.Buffer) {
		v, quoted := rv()
		if quoted {
			fmt.Fprintf(b, `"resourceVersion":%q`, v)
		} else {
			fmt.Fprintf(b, `"resourceVersion":%s`, v)
		}
	}
	// The objects of the last events, which Repeat picks from.
	var recent []int
	next := 0
	session := 0
	startSession := func() {
		if !http {
			return
		}
		fmt.Fprintf(&out, "GET /api/v1/configmaps?allowWatchBookmarks=true&resourceVersion=%s&watch=true HTTP/1.1\r\nHost: 10.0.0.1:6443\r\nUser-Agent: stream-fuzz/1.0\r\nAccept: application/json\r\n\r\n", lastRV)
		fmt.Fprintf(&out, "HTTP/1.1 200 OK\r\nAudit-Id: %08x-6bb6-4b59-82c6-ce6326796ba0\r\nCache-Control: no-cache, private\r\nContent-Type: application/json\r\nDate: Mon, 30 Nov 2026 00:54:23 GMT\r\nTransfer-Encoding: chunked\r\n\r\n", session)
	}
	endSession := func() {
		if !http {
			return
		}
		if chunked {
			out.Write(chunk(body.Bytes(), "\r\n", pieceSizes(pieces, s.PieceScale)...))
		} else {
			out.WriteString("0\r\n\r\n")
		}
		body.Reset()
	}
	startSession()
	for i := range n {
		start := text.Len()
		ended := false
		switch {
		case chance(s.Bookmarks):
			k := streamKinds[kinds[rng.IntN(len(kinds))]]
			fmt.Fprintf(&text, `{"type":"BOOKMARK","object":{"kind":%q,"apiVersion":%q,"metadata":{`, k.kind, k.apiVersion)
			writeRV(&text)
			text.WriteString(`,"creationTimestamp":null`)
			if rng.IntN(4) == 0 {
				text.WriteString(`,"annotations":{"k8s.io/initial-events-end":"true"}`)
			}
			text.WriteString(`}}}`)
		case chance(s.Errors):
			writeStreamError(&text, rng, lastRV)
			ended = true
		default:
			var o int
			if len(recent) > 0 && chance(s.Repeat) {
				o = recent[rng.IntN(len(recent))]
			} else {
				o, next = next, (next+1)%len(objects)
			}
			if len(recent) < 32 {
				recent = append(recent, o)
			} else {
				recent[i%32] = o
			}
			writeStreamObject(&text, rng, &objects[o], o, i, namespaces, writeRV)
		}
		st.lines = append(st.lines, text.Bytes()[start:text.Len():text.Len()])
		line := st.lines[i]
		st.sessions = append(st.sessions, session)
		if http && !chunked {
			fmt.Fprintf(&out, "%x\r\n", len(line)+1)
		}
		if http && chunked {
			st.starts = append(st.starts, -1)
			body.Write(line)
			body.WriteByte('\n')
		} else {
			st.starts = append(st.starts, out.Len())
			out.Write(line)
			out.WriteByte('\n')
		}
		if http && !chunked {
			out.WriteString("\r\n")
		}
		if ended && http && i < n-1 {
			endSession()
			session++
			st.nSessions++
			startSession()
		}
	}
	endSession()
	st.in = out.Bytes()
	return st
}

// pieceSizes are the sizes that pieces give.
func pieceSizes(pieces []byte, scale uint8) []int {
	sizes := make([]int, len(pieces))
	for k, p := range pieces {
		sizes[k] = (int(p) + 1) << (scale % 4 * 3)
	}
	return sizes
}

// writeStreamError writes an ERROR event, as the API server ends a watch
// with one.
func writeStreamError(b *bytes.Buffer, rng *rand.Rand, lastRV string) {
	b.WriteString(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",`)
	switch rng.IntN(4) {
	case 0, 1:
		fmt.Fprintf(b, `"message":"too old resource version: %s (%s%d)","reason":"Expired","code":410}}`, lastRV, lastRV, rng.IntN(10))
	case 2:
		fmt.Fprintf(b, `"message":"Too large resource version: %s%d, current: %s","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504}}`, lastRV, rng.IntN(10), lastRV)
	default:
		b.WriteString(`"message":"an error on the server (\"unknown\") has prevented the request from succeeding","reason":"InternalError","code":500}}`)
	}
}

// streamLabels are the label sets of the objects, in the order written:
// keys out of order, and keys that begin as another.
var streamLabels = [...]string{
	`{"app":"web"}`,
	`{"tier":"backend","app":"api"}`,
	`{"app":"web","app.kubernetes.io/name":"web","pod-template-hash":"6d8f77"}`,
	`{"app.kubernetes.io/name":"cache","app":"cache","tier":"cache"}`,
	`{"team":"a","version":"v1","app":"batch","app.kubernetes.io/part-of":"jobs"}`,
	`{}`,
	`{"controller-uid":"1b2c3d4e-0000-4000-8000-000000000001","job-name":"nightly"}`,
	`{"k8s-app":"kube-dns"}`,
}

// writeStreamObject writes an event of object o, which the event i
// creates, changes or deletes, in the API server's key order.
func writeStreamObject(b *bytes.Buffer, rng *rand.Rand, obj *streamObject, o, i, namespaces int, writeRV func(*bytes.Buffer)) {
	typ := "MODIFIED"
	switch {
	case !obj.alive:
		typ, obj.alive, obj.created = "ADDED", true, i
		obj.gen++
	case rng.IntN(8) == 0:
		typ, obj.alive = "DELETED", false
	}
	k := streamKinds[obj.kind]
	name := fmt.Sprintf("%s-%d", strings.ToLower(k.kind), o)
	if obj.nameTail > 0 {
		name += "-" + strings.Repeat(string(rune('a'+o%26)), obj.nameTail)
	}
	quoted := strconv.Quote(name)
	if obj.escape {
		quoted = strings.Replace(quoted, "-", `\u002d`, 1)
	}
	fmt.Fprintf(b, `{"type":%q,"object":{"kind":%q,"apiVersion":%q,"metadata":{"name":%s,`, typ, k.kind, k.apiVersion, quoted)
	if obj.kind == 3 {
		fmt.Fprintf(b, `"generateName":"pod-%d-",`, o%7)
	}
	if k.namespaced {
		fmt.Fprintf(b, `"namespace":"team-%d",`, o%namespaces)
	}
	if !obj.noUID {
		fmt.Fprintf(b, `"uid":"%08x-%04x-4ec7-b3fb-ba14635341da",`, o, obj.gen)
	}
	writeRV(b)
	if obj.kind == 5 {
		fmt.Fprintf(b, `,"generation":%d`, 1+i-obj.created)
	}
	fmt.Fprintf(b, `,"creationTimestamp":%q`, streamAt(obj.created))
	if typ == "DELETED" && (obj.kind == 3 || obj.kind == 5) {
		fmt.Fprintf(b, `,"deletionTimestamp":%q,"deletionGracePeriodSeconds":0`, streamAt(i+1))
	}
	if obj.labels >= 0 {
		b.WriteString(`,"labels":` + streamLabels[obj.labels])
	}
	switch obj.kind {
	case 1:
		fmt.Fprintf(b, `,"ownerReferences":[{"apiVersion":"v1","kind":"Node","name":"node-%d","uid":"%08x-0000-4000-8000-000000000000"}]`, o%40, o%40)
	case 3:
		fmt.Fprintf(b, `,"annotations":{"team.example.com/owner":"team-%d"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"pod-%d","uid":"1b2c3d4e-0000-4000-8000-%012d","controller":true,"blockOwnerDeletion":true}]`, o%5, o%7, o%7)
	}
	// managedFields, but for the Events, half of which have none: the
	// newest entry's time, else the deletion's or the creation's, is
	// the event's estimated time.
	if obj.kind != 2 || o%2 == 0 {
		fmt.Fprintf(b, `,"managedFields":[{"manager":%q,"operation":"Update","apiVersion":%q,"time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}}`,
			streamManagers[o%len(streamManagers)], k.apiVersion, streamAt(obj.created))
		if obj.kind == 3 || obj.kind == 4 {
			fmt.Fprintf(b, `,{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"Ready\"}":{".":{},"f:status":{}}},"f:podIP":{}}},"subresource":"status"}`, streamAt(i-rng.IntN(200)))
		}
		b.WriteString(`]`)
	}
	b.WriteString(`}`)
	switch obj.kind {
	case 0:
		fmt.Fprintf(b, `,"data":{"holder":"replica-%d","payload":"value-%d"}`, i%3, i)
	case 1:
		fmt.Fprintf(b, `,"spec":{"holderIdentity":"node-%d","leaseDurationSeconds":40,"renewTime":"%s"}`, o%40, strings.Replace(streamAt(i), "Z", ".123456Z", 1))
	case 2:
		fmt.Fprintf(b, `,"involvedObject":{"kind":"Pod","namespace":"team-%d","name":"pod-%d","uid":"%08x-4ec7-b3fb-ba14635341da","apiVersion":"v1","resourceVersion":"%d"},"reason":"Pulled","message":"pulled in %dms","count":1,"type":"Normal","eventTime":null`, o%namespaces, o, o, i, rng.IntN(5000))
	case 3:
		fmt.Fprintf(b, `,"spec":{"containers":[{"name":"app","image":"registry.example.com/app:1.%d"}],"nodeName":"node-%d"},"status":{"phase":"Running","podIP":"10.244.%d.%d"}`, o%9, o%40, o/250%256, 2+o%250)
	case 4:
		fmt.Fprintf(b, `,"spec":{"podCIDR":"10.244.%d.0/24"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":%q}]}`, o%256, streamAt(i))
	case 5:
		fmt.Fprintf(b, `,"spec":{"size":%d,"selector":{"matchLabels":{"app":"w"}}}`, rng.IntN(100))
	}
	b.WriteString(`}}`)
}

// pieceReader hands its bytes out in reads of the sizes of pieces,
// cycled: neither a bytes.Reader, which the Reader reads in place, nor
// all at once.
type pieceReader struct {
	b     []byte
	sizes []int
	k     int
}

func (p *pieceReader) Read(dst []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, io.EOF
	}
	n := len(p.b)
	if len(p.sizes) > 0 {
		n = p.sizes[p.k%len(p.sizes)]
		p.k++
	}
	n = copy(dst, p.b[:min(n, len(p.b))])
	p.b = p.b[n:]
	return n, nil
}

// wireEvent is what encoding/json decodes of an event's line.
type wireEvent struct {
	Type   string `json:"type"`
	Object struct {
		Kind       string `json:"kind"`
		APIVersion string `json:"apiVersion"`
		Metadata   struct {
			Name              string            `json:"name"`
			Namespace         string            `json:"namespace"`
			UID               string            `json:"uid"`
			ResourceVersion   json.RawMessage   `json:"resourceVersion"`
			CreationTimestamp *string           `json:"creationTimestamp"`
			DeletionTimestamp *string           `json:"deletionTimestamp"`
			Labels            map[string]string `json:"labels"`
			Annotations       map[string]string `json:"annotations"`
			ManagedFields     []struct {
				Time string `json:"time"`
			} `json:"managedFields"`
		} `json:"metadata"`
		Code    int    `json:"code"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	} `json:"object"`
}

// wantEvent is the Event that line decodes to, as encoding/json reads
// it, and whether its resourceVersion is diagnosed.
func wantEvent(t testing.TB, line []byte) (Event, bool) {
	t.Helper()
	var w wireEvent
	if err := json.Unmarshal(line, &w); err != nil {
		t.Fatalf("a generated line is not JSON (%v): %s", err, line)
	}
	m := &w.Object.Metadata
	e := Event{Type: ParseEventType(w.Type), Kind: w.Object.Kind, APIVersion: w.Object.APIVersion,
		Namespace: m.Namespace, Name: m.Name, UID: m.UID}
	if rv := m.ResourceVersion; len(rv) > 0 && rv[0] == '"' {
		if err := json.Unmarshal(rv, &e.RV); err != nil {
			t.Fatal(err)
		}
	} else {
		e.RV = string(rv)
	}
	if n, err := strconv.ParseUint(e.RV, 10, 64); err == nil && n <= math.MaxInt64 {
		e.RVNum, e.RVValid = n, true
	}
	if len(m.Labels) > 0 {
		keys := make([]string, 0, len(m.Labels))
		for k := range m.Labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		pairs := make([]string, len(keys))
		for i, k := range keys {
			pairs[i] = k + "=" + m.Labels[k]
		}
		e.Labels = strings.Join(pairs, ",")
	}
	e.InitialEventsEnd = m.Annotations["k8s.io/initial-events-end"] == "true"
	for _, mf := range m.ManagedFields {
		if tm, err := time.Parse(time.RFC3339, mf.Time); err == nil {
			e.Estimated = max(e.Estimated, tm.UnixNano())
		}
	}
	for _, ts := range []*string{m.DeletionTimestamp, m.CreationTimestamp} {
		if ts != nil && e.Estimated == 0 {
			if tm, err := time.Parse(time.RFC3339, *ts); err == nil {
				e.Estimated = tm.UnixNano()
			}
		}
	}
	if e.Type == Error {
		st := &Status{Code: w.Object.Code, Reason: w.Object.Reason, Message: w.Object.Message}
		if rest, ok := strings.CutPrefix(st.Message, "too old resource version: "); ok {
			x, y, ok := strings.Cut(strings.TrimSuffix(rest, ")"), " (")
			st.X, st.Y, st.TooOld = bothUint(x, y, ok)
		} else if rest, ok := strings.CutPrefix(st.Message, "Too large resource version: "); ok {
			x, y, ok := strings.Cut(rest, ", current: ")
			st.X, st.Y, st.TooLarge = bothUint(x, y, ok)
		}
		e.Status = st
	}
	return e, !e.RVValid && e.Type >= Added && e.Type <= Bookmark
}

// bothUint is x and y read as decimal numbers, and whether both are.
func bothUint(x, y string, ok bool) (uint64, uint64, bool) {
	a, errA := strconv.ParseUint(x, 10, 64)
	b, errB := strconv.ParseUint(y, 10, 64)
	if !ok || errA != nil || errB != nil {
		return 0, 0, false
	}
	return a, b, true
}

// sameFields says how got differs from want in what wantEvent sets, ""
// where it does not.
func sameFields(got, want Event) string {
	var d []string
	for _, f := range [...]struct {
		name      string
		got, want any
	}{
		{"type", got.Type, want.Type}, {"kind", got.Kind, want.Kind}, {"apiVersion", got.APIVersion, want.APIVersion},
		{"namespace", got.Namespace, want.Namespace}, {"name", got.Name, want.Name}, {"uid", got.UID, want.UID},
		{"resourceVersion", got.RV, want.RV}, {"its value", got.RVNum, want.RVNum}, {"its validity", got.RVValid, want.RVValid},
		{"labels", got.Labels, want.Labels}, {"initial-events-end", got.InitialEventsEnd, want.InitialEventsEnd},
		{"estimated time", got.Estimated, want.Estimated},
	} {
		if f.got != f.want {
			d = append(d, fmt.Sprintf("%s %q, want %q", f.name, fmt.Sprint(f.got), fmt.Sprint(f.want)))
		}
	}
	if (got.Status == nil) != (want.Status == nil) || got.Status != nil && *got.Status != *want.Status {
		d = append(d, fmt.Sprintf("status %+v, want %+v", got.Status, want.Status))
	}
	return strings.Join(d, "; ")
}

// streamIdentity is what Event.Identity numbers: an object's uid, name
// and namespace.
type streamIdentity struct{ uid, name, namespace string }

// identitySeen is the number an object had when last seen, at which
// event and in which session.
type identitySeen struct {
	id         uint32
	at, within int
}

// checkStream reads st as s says, and holds each event to its line.
func checkStream(t testing.TB, st *stream, s streamShape, pieces []byte) {
	var src io.Reader = bytes.NewReader(st.in)
	if s.Framing&2 != 0 && len(pieces) > 0 {
		src = &pieceReader{b: st.in, sizes: pieceSizes(pieces, s.PieceScale)}
	}
	rd := NewReader(src, Options{})
	limit := streamInternLimits[int(s.InternLimit)%len(streamInternLimits)]
	rd.intern.limit = limit
	var got []Event
	want := make([]Event, len(st.lines))
	badRVs := 0
	owner := map[uint32]streamIdentity{}
	seen := map[streamIdentity]identitySeen{}
	var maxID uint32
	for rd.Next() {
		e := rd.Event()
		i := len(got)
		if i >= len(st.lines) {
			t.Fatalf("event %d past the %d of the stream: %+v", i, len(st.lines), e)
		}
		line := st.lines[i]
		w, bad := wantEvent(t, line)
		want[i] = w
		if bad {
			badRVs++
		}
		if d := sameFields(e, w); d != "" {
			t.Fatalf("event %d: %s\nline: %s", i, d, line)
		}
		if e.Seq != i || e.Session != st.sessions[i] || e.Arrival != 0 || e.Encoded {
			t.Fatalf("event %d: seq %d, session %d (want %d), arrival %d, encoded %v", i, e.Seq, e.Session, st.sessions[i], e.Arrival, e.Encoded)
		}
		if !bytes.Equal(rd.Raw(), line) {
			t.Fatalf("event %d: raw bytes\n%s\nwant\n%s", i, rd.Raw(), line)
		}
		if at := st.starts[i]; at >= 0 && (e.Offset != int64(at) || e.Length != int64(len(line))) {
			t.Fatalf("event %d: at %d, %d bytes; its line is at %d, %d bytes", i, e.Offset, e.Length, at, len(line))
		}
		checkIdentity(t, e, owner, seen, &maxID, limit, st.headers)
		got = append(got, e)
	}
	if rd.Err() != nil {
		t.Fatalf("Err %v on an in-memory stream", rd.Err())
	}
	if len(got) != len(st.lines) {
		t.Fatalf("%d events read of %d; diagnostics %v", len(got), len(st.lines), rd.Diagnostics())
	}
	if n := len(rd.Sessions()); n != st.nSessions {
		t.Fatalf("%d sessions, want %d", n, st.nSessions)
	}
	diags := rd.Diagnostics()
	if len(diags) != min(badRVs, maxDiagnostics) {
		t.Fatalf("%d diagnostics, want %d of bad resourceVersions: %v", len(diags), badRVs, diags)
	}
	for _, d := range diags {
		if d.Kind != DiagBadRV && d.Kind != DiagTooMany {
			t.Fatalf("diagnostic %v", d)
		}
	}
	// Once the whole stream is read, the strings of the first events,
	// in blocks that later ones filled and generations of the intern
	// table since dropped, still hold what they held.
	for i, e := range got {
		if d := sameFields(e, want[i]); d != "" {
			t.Fatalf("event %d, after the stream's end: %s\nline: %s", i, d, st.lines[i])
		}
	}
}

// checkIdentity holds e's Identity to what Event.Identity says: no
// number for no object, never one number for two objects, a new number
// above every one before, and an object's own number while it recurs
// within fewer strings than a generation of the intern table holds
// (limit): no event has the Reader intern more than 8 strings, nor an
// HTTP head more than headers.
func checkIdentity(t testing.TB, e Event, owner map[uint32]streamIdentity, seen map[streamIdentity]identitySeen, maxID *uint32, limit, headers int) {
	t.Helper()
	obj := streamIdentity{e.UID, e.Name, e.Namespace}
	if obj == (streamIdentity{}) {
		if e.Identity != 0 {
			t.Fatalf("event %d, of no object, numbered %d", e.Seq, e.Identity)
		}
		return
	}
	if e.Identity == 0 {
		return // not numbered: the reference extraction read it
	}
	if o, ok := owner[e.Identity]; ok && o != obj {
		t.Fatalf("event %d: %+v numbered %d, the number of %+v", e.Seq, obj, e.Identity, o)
	}
	last, ok := seen[obj]
	switch {
	case ok && last.id == e.Identity:
	case e.Identity <= *maxID:
		t.Fatalf("event %d: %+v numbered %d anew, not above %d", e.Seq, obj, e.Identity, *maxID)
	case ok && 8*(e.Seq-last.at)+(headers+1)*(e.Session-last.within) <= limit:
		t.Fatalf("event %d: %+v numbered %d, and %d at event %d, within a generation of %d strings", e.Seq, obj, e.Identity, last.id, last.at, limit)
	}
	owner[e.Identity] = obj
	seen[obj] = identitySeen{e.Identity, e.Seq, e.Session}
	*maxID = max(*maxID, e.Identity)
}
