package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"watchlens/internal/testsample"
)

// listBody is a ConfigMapList of the named items, as the API server sends
// it: the items carry no kind or apiVersion of their own.
func listBody(rv, cont string, names ...string) string {
	items := make([]string, len(names))
	for k, n := range names {
		items[k] = fmt.Sprintf(`{"metadata":{"name":%q,"namespace":"ns","uid":"u-%s","resourceVersion":"%d","labels":{"b":"2","a":"1"}},"data":{"k":"v{[\"]}"}}`, n, n, 10+k)
	}
	meta := fmt.Sprintf(`{"resourceVersion":%q}`, rv)
	if cont != "" {
		meta = fmt.Sprintf(`{"resourceVersion":%q,"continue":%q,"remainingItemCount":3}`, rv, cont)
	}
	return `{"kind":"ConfigMapList","apiVersion":"v1","metadata":` + meta + `,"items":[` + strings.Join(items, ",") + `]}`
}

// checkItemSpans holds each Listed event's span to its item: the clean
// JSON of the span is the item as the list holds it.
func checkItemSpans(t *testing.T, in []byte, c *Capture, list string) {
	t.Helper()
	items := gjson.Get(list, "items").Array()
	k := 0
	for _, e := range c.Events {
		if e.Type != Listed {
			continue
		}
		if k >= len(items) {
			t.Fatalf("more Listed events than the list's %d items", len(items))
		}
		span := in[e.Offset : e.Offset+e.Length]
		got, err := EventJSON(span)
		var compact bytes.Buffer
		if err == nil {
			err = json.Compact(&compact, got)
		}
		if err != nil || compact.String() != items[k].Raw {
			t.Errorf("item %d (%s): span %q gives %q (%v), want %q", k, e.Name, span, got, err, items[k].Raw)
		}
		k++
	}
	if k != len(items) {
		t.Errorf("%d Listed events, want the list's %d items", k, len(items))
	}
}

// timed prefixes every line of b with an arrival time, one per line, a
// millisecond apart from at.
func timed(b string, at time.Time) []byte {
	var out bytes.Buffer
	for _, ln := range strings.SplitAfter(b, "\n") {
		if ln == "" {
			continue
		}
		out.WriteString(at.UTC().Format("2006-01-02T15:04:05.000000000Z") + " " + ln)
		at = at.Add(time.Millisecond)
	}
	return out.Bytes()
}

// A LIST's response is read as a list: each item an event of its own,
// with the list's kind less "List", and the list's resourceVersion on the
// session, however chunks and time prefixes cut it.
func TestListItems(t *testing.T) {
	list := listBody("283", "", "a", "b", "c")
	head := "GET /api/v1/namespaces/ns/configmaps?limit=500&resourceVersion=0 HTTP/1.1\n\nHTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n"
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"one chunk", []byte(head + string(chunk([]byte(list), "\n", len(list))))},
		{"chunks of 50 bytes", []byte(head + string(chunk([]byte(list), "\n", 50, 7, 130)))},
		{"chunks of 50 bytes, timed", timed(head+string(chunk([]byte(list), "\n", 50, 7, 130)), time.Unix(1e9, 0))},
		{"body only", []byte(list + "\n")},
		{"pretty-printed, timed", timed(prettyJSON(t, list)+"\n", time.Unix(1e9, 0))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustRead(t, tc.in)
			if len(c.Diagnostics) != 0 {
				t.Fatalf("diagnostics %v", c.Diagnostics)
			}
			if names(c) != "a,b,c" {
				t.Fatalf("events %q", names(c))
			}
			for k, e := range c.Events {
				if e.Type != Listed || e.Kind != "ConfigMap" || e.APIVersion != "v1" || e.Namespace != "ns" || e.UID != "u-"+e.Name ||
					e.RV != fmt.Sprint(10+k) || !e.RVValid || e.Labels != "a=1,b=2" {
					t.Errorf("item %d: %+v", k, e)
				}
			}
			s := c.Sessions[len(c.Sessions)-1]
			if s.List == nil || *s.List != (List{Kind: "ConfigMapList", RV: "283", Items: 3, Complete: true}) || s.Events != 3 {
				t.Fatalf("session's list %+v, %d events", s.List, s.Events)
			}
			checkItemSpans(t, tc.in, c, list)
		})
	}
}

func prettyJSON(t *testing.T, s string) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(s), "", "    "); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// Pages of a list: each response's continue token is on its session.
func TestListContinue(t *testing.T) {
	page := func(req, body string) string {
		return req + "\n\nHTTP/1.1 200 OK\nContent-Type: application/json\nTransfer-Encoding: chunked\n\n" + string(chunk([]byte(body), "\n", len(body)))
	}
	in := page("GET /api/v1/configmaps?limit=2 HTTP/1.1", listBody("50", "tok1", "a", "b")) +
		page("GET /api/v1/configmaps?continue=tok1&limit=2 HTTP/1.1", listBody("50", "", "c"))
	c := mustRead(t, []byte(in))
	if len(c.Sessions) != 2 || names(c) != "a,b,c" || len(c.Diagnostics) != 0 {
		t.Fatalf("%d sessions, events %q, diagnostics %v", len(c.Sessions), names(c), c.Diagnostics)
	}
	if l := c.Sessions[0].List; l == nil || l.RV != "50" || l.Continue != "tok1" || l.Items != 2 || !l.Complete {
		t.Errorf("first page %+v", l)
	}
	if l := c.Sessions[1].List; l == nil || l.RV != "50" || l.Continue != "" || l.Items != 1 || !l.Complete {
		t.Errorf("last page %+v", l)
	}
}

// A list cut off by the capture's end, or by another response, keeps its
// whole items and says where it broke; what follows is read.
func TestListCut(t *testing.T) {
	list := listBody("283", "", "a", "b", "c")
	cut := strings.Index(list, `{"metadata":{"name":"c"`) + 20
	head := "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n"
	watch := "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n" + string(chunk([]byte(ev("ADDED", "d", "300")+"\n"), "\n", 1000))
	for _, tc := range []struct {
		name string
		in   string
		next bool
	}{
		{"capture ends", head + strings.TrimSuffix(string(chunk([]byte(list[:cut]), "\n", 40)), "0\nX-Trailer: 1\n\n"), false},
		{"another response follows", head + fmt.Sprintf("%x\n%s\n", cut, list[:cut]) + watch, true},
		{"body only", list[:cut], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustRead(t, []byte(tc.in))
			want := "a,b"
			if tc.next {
				want = "a,b,d"
			}
			if names(c) != want {
				t.Fatalf("events %q, want %q; diagnostics %v", names(c), want, c.Diagnostics)
			}
			d := wantDiag(t, c, "cut-list")
			start := int64(strings.Index(tc.in, `{"kind"`))
			if d.Offset != start || !strings.Contains(d.Msg, "2 whole items") {
				t.Errorf("diagnostic %+v, want at %d", d, start)
			}
			if strings.Contains(strings.Join(kinds(c), ","), "cut-event") {
				t.Errorf("the cut list is also a cut event: %v", c.Diagnostics)
			}
			s := c.Sessions[0]
			if s.List == nil || s.List.Complete || s.List.RV != "283" || s.List.Items != 2 || !s.Truncated {
				t.Errorf("session %+v, list %+v", s, s.List)
			}
			checkItemSpans(t, []byte(tc.in), &Capture{Events: c.Events[:2]}, listBody("283", "", "a", "b"))
		})
	}
}

// Items that are not objects are reported where they are, and skipped;
// items of a generic List keep their own kinds.
func TestListBadItems(t *testing.T) {
	in := `{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":""},"items":[1,{"kind":"Pod","metadata":{"name":"p","resourceVersion":"7"}},"x",` +
		`{"kind":"Service","apiVersion":"v1","metadata":{"name":"s","resourceVersion":"8"}},null]}` + "\n" +
		`{"kind":"PodList","metadata":{"resourceVersion":"9"},"items":{"a":1}}` + "\n" +
		`{"kind":"PodList","metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":"q"}} {"metadata":{"name":"r"}}]}` + "\n"
	c := mustRead(t, []byte(in))
	if names(c) != "p,s,q" {
		t.Fatalf("events %q; diagnostics %v", names(c), c.Diagnostics)
	}
	if c.Events[0].Kind != "Pod" || c.Events[1].Kind != "Service" || c.Events[1].APIVersion != "v1" || c.Events[2].Kind != "Pod" {
		t.Errorf("kinds %+v", c.Events)
	}
	var bad []int64
	for _, d := range c.Diagnostics {
		if d.Kind == "bad-list-item" {
			bad = append(bad, d.Offset)
		}
	}
	want := []int64{int64(strings.Index(in, "[1,") + 1), int64(strings.Index(in, `"x"`)), int64(strings.Index(in, "null]"))}
	if fmt.Sprint(bad) != fmt.Sprint(want) {
		t.Errorf("bad items at %v, want %v; diagnostics %v", bad, want, c.Diagnostics)
	}
	if k := kinds(c); strings.Count(strings.Join(k, ","), "bad-list,") != 1 || k[len(k)-1] != "bad-list" {
		t.Errorf("diagnostics %v, want a bad-list for items not an array and one for the missing comma", c.Diagnostics)
	}
	if l := c.Sessions[0].List; l == nil || l.Complete || l.RV != "9" {
		t.Errorf("the last list is broken: %+v", l)
	}
}

// LISTED and OBSERVED are no wire types, and an empty list is a list.
func TestListedIsNoWireType(t *testing.T) {
	c := mustRead(t, []byte(`{"type":"LISTED","object":{"kind":"ConfigMap","metadata":{"name":"a"}}}`+"\n"+`{"kind":"ConfigMapList","metadata":{"resourceVersion":"5"},"items":[]}`))
	if len(c.Events) != 0 || wantDiag(t, c, "bad-type").Offset != 0 {
		t.Errorf("events %+v", c.Events)
	}
	if l := c.Sessions[0].List; l == nil || l.RV != "5" || l.Items != 0 || !l.Complete {
		t.Errorf("empty list %+v", l)
	}
	// Alone, it is no empty capture.
	if c := mustRead(t, []byte(`{"kind":"ConfigMapList","metadata":{"resourceVersion":"5"},"items":[]}`)); len(c.Sessions) != 1 || len(c.Diagnostics) != 0 {
		t.Errorf("a lone empty list: %d sessions, diagnostics %v", len(c.Sessions), c.Diagnostics)
	}
}

// Every LIST response of the fleet's JSON clients is a list of the
// client's shard: one ConfigMap, at the RV its watch then asks for.
func TestFleetLists(t *testing.T) {
	b, err := os.ReadFile("../testdata/fleet/c31-nobookmarks.ts.http")
	if err != nil {
		t.Fatal(err)
	}
	c := mustRead(t, b)
	lists := 0
	for k, s := range c.Sessions {
		if s.Request.Watch {
			continue
		}
		lists++
		if s.List == nil || !s.List.Complete || s.List.Items != 1 || k+1 == len(c.Sessions) || c.Sessions[k+1].Request.ResourceVersion != s.List.RV {
			t.Errorf("LIST session %d: %+v, then %+v", k, s.List, c.Sessions[k+1].Request)
		}
	}
	if lists != 3 {
		t.Errorf("%d LISTs, want TRUTH.tsv's 3", lists)
	}
	for _, e := range c.Events {
		if e.Type == Listed && (e.Kind != "ConfigMap" || e.Name != "shard-s11" || e.Labels != "shard=s11") {
			t.Errorf("item %+v", e)
		}
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("diagnostics %v", c.Diagnostics)
	}
}

// TestBigListReadItemByItem: a LIST answer larger than MaxEventSize is
// read item by item rather than dropped. The lab's real ConfigMapList
// (25 KB, 56 items), under a 4 KiB limit, in chunks of several sizes,
// whole in one piece, or cut off: every whole item is an event at the
// same place as under the default limit, the session's list has them all
// with its RV, and one diagnostic says the list was read so.
func TestBigListReadItemByItem(t *testing.T) {
	capture := testsample.Read(t, filepath.Join(testsample.Recording(t, "samples-lab"), "broad-a.ts.http"))
	var list []byte
	for _, ln := range bytes.Split(capture, []byte("\n")) {
		if _, v, ok := bytes.Cut(ln, []byte(" ")); ok && bytes.HasPrefix(v, []byte(`{"kind":"ConfigMapList"`)) {
			list = v
		}
	}
	items := gjson.GetBytes(list, "items.#").Int()
	if items < 50 || len(list) < 6*4096 {
		t.Fatalf("the lab's ConfigMapList has %d items in %d bytes", items, len(list))
	}
	head := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
	cut := bytes.Index(list, []byte(`{"metadata":{"name":"`+gjson.GetBytes(list, "items.40.metadata.name").String()+`"`)) + 30
	for _, tc := range []struct {
		name  string
		in    []byte
		items int
	}{
		{"chunks of 700", append([]byte(head), chunk(list, "\r\n", 700)...), int(items)},
		{"chunks of 3000 and 5", append([]byte(head), chunk(list, "\r\n", 3000, 5)...), int(items)},
		{"one piece", list, int(items)},
		{"cut off", append([]byte(head), bytes.TrimSuffix(chunk(list[:cut], "\r\n", 900), []byte("0\r\n\r\n"))...), 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := mustRead(t, tc.in)
			c, err := ReadAll(bytes.NewReader(tc.in), Options{MaxEventSize: 4096})
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Events) != tc.items || len(whole.Events) != tc.items {
				t.Fatalf("%d events under 4 KiB, %d under the default limit, want %d; diagnostics %v", len(c.Events), len(whole.Events), tc.items, c.Diagnostics)
			}
			for i, e := range c.Events {
				w := whole.Events[i]
				if e.Type != Listed || e.Name != w.Name || e.RV != w.RV || e.Offset != w.Offset || e.Length != w.Length {
					t.Fatalf("item %d: %s %s RV %s at %d+%d, want %s at %d+%d", i, e.Type, e.Name, e.RV, e.Offset, e.Length, w.Name, w.Offset, w.Length)
				}
			}
			s, ws := c.Sessions[0], whole.Sessions[0]
			if s.List == nil || s.List.Items != tc.items || s.List.RV != ws.List.RV || s.List.Complete != ws.List.Complete || s.Truncated != ws.Truncated {
				t.Errorf("session %+v list %+v, want list %+v", s, s.List, ws.List)
			}
			if d := wantDiag(t, c, "big-list"); d.Offset != int64(bytes.Index(tc.in, []byte(`{"kind"`))) || !strings.Contains(d.Msg, "ConfigMapList is larger than the 4096 bytes") {
				t.Errorf("diagnostic %+v", d)
			}
			if strings.Contains(strings.Join(kinds(c), ","), "event-too-big") {
				t.Errorf("the list was dropped: %v", c.Diagnostics)
			}
		})
	}
}
