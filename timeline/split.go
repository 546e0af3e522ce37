package timeline

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"watchlens/parser"
)

// Virtual clients: one broad capture split by a selector.
//
// A watch of every pod is every kubelet's view at once: split by
// spec.nodeName, each node's share is what that kubelet's narrow watch
// would have received; split by namespace or by a label, each share is a
// narrow controller's. A virtual client gets the share's changes, every
// bookmark the broad watch got (a narrow watcher that asked for bookmarks
// gets them on the same cadence, carrying the same cache RV: a bookmark
// says nothing changed up to it, for every selector), and the broad
// watch's connections, with a request naming its selector. Its
// bookmark-aware cursor is then a narrow watcher's that asked for
// bookmarks, and its bookmark-ignoring cursor one's that did not. The
// broad watch's errors stay its own: a narrow watch is answered on its
// own cursor.

// SplitKind is what a broad capture is split by.
type SplitKind uint8

const (
	SplitNamespace SplitKind = iota
	SplitLabel
	SplitField
)

// Split says how to split a broad capture into virtual clients.
type Split struct {
	Kind SplitKind
	// Key is the label key (SplitLabel) or the field path in the object
	// (SplitField, e.g. spec.nodeName).
	Key string
}

// ParseSplit reads the CLI's --split-by: nodeName, namespace,
// label=KEY or field=PATH.
func ParseSplit(s string) (Split, error) {
	switch {
	case s == "nodeName":
		return Split{Kind: SplitField, Key: "spec.nodeName"}, nil
	case s == "namespace":
		return Split{Kind: SplitNamespace}, nil
	case strings.HasPrefix(s, "label=") && len(s) > len("label="):
		return Split{Kind: SplitLabel, Key: s[len("label="):]}, nil
	case strings.HasPrefix(s, "field=") && len(s) > len("field="):
		return Split{Kind: SplitField, Key: s[len("field="):]}, nil
	}
	return Split{}, fmt.Errorf("%q: split by nodeName, namespace, label=KEY or field=PATH", s)
}

// key is the virtual client an object belongs to, as a selector
// ("shard=s10", "spec.nodeName=node-3", "namespace=team-a"); ok false for
// an object outside every share (no such label or field). raw is the
// event's JSON: fields beyond the metadata are read only here, off the
// parser's path.
func (sp Split) key(ev *parser.Event, raw []byte) (string, bool) {
	switch sp.Kind {
	case SplitNamespace:
		return "namespace=" + ev.Namespace, ev.Namespace != ""
	case SplitLabel:
		for _, kv := range strings.Split(ev.Labels, ",") {
			if k, v, ok := strings.Cut(kv, "="); ok && k == sp.Key {
				return k + "=" + v, true
			}
		}
		return "", false
	}
	path := "object." + sp.Key
	if ev.Type == parser.Observed || ev.Type == parser.Listed {
		path = sp.Key // a bare object, or a list's item
	}
	v := gjson.GetBytes(raw, path)
	if !v.Exists() || v.String() == "" {
		return "", false
	}
	return sp.Key + "=" + v.String(), true
}

// request is the virtual client's request for one of the broad watch's
// sessions: the same, narrowed to the share.
func (sp Split) request(q *parser.Request, key string) *parser.Request {
	n := parser.Request{Method: "GET", Watch: true}
	if q != nil {
		n = *q
	}
	// Named by its file, not by the broad watch's client.
	n.UserAgent = ""
	_, v, _ := strings.Cut(key, "=")
	switch sp.Kind {
	case SplitNamespace:
		n.Path = namespacedPath(n.Path, v)
	case SplitLabel:
		n.LabelSelector = key
	case SplitField:
		n.FieldSelector = key
	}
	return &n
}

// namespacedPath is a collection's path in namespace ns:
// /api/v1/pods -> /api/v1/namespaces/ns/pods.
func namespacedPath(path, ns string) string {
	i := strings.LastIndexByte(path, '/')
	if i < 0 || containsSeg(path, "namespaces") {
		return "/namespaces/" + ns + path
	}
	return path[:i] + "/namespaces/" + ns + path[i:]
}

// AddReaderSplit reads a capture as AddReader does, and adds after it one
// virtual client per share of split, named "NAME [SELECTOR]", in the
// order of the selectors. An audit log or a client log is read as
// AddReader reads it.
func (b *Builder) AddReaderSplit(name string, r io.Reader, opts parser.Options, split Split) error {
	// An audit log or a client log has its clients already, and an export
	// is metrics: each is read as AddReader does, and a file that is no
	// watch record is told for what it is.
	head, r := parser.SniffHead(r)
	if other, err := b.addOtherKind(name, head, r, opts); other {
		return err
	}
	f := b.AddFile(name)
	f.looksLike = head.LooksLike()
	rd := parser.NewReader(r, opts)
	shares := map[string][]parser.Event{}
	var bookmarks []parser.Event
	err := b.readEvents(f, rd, func(ev parser.Event) {
		switch ev.Type {
		case parser.Bookmark:
			bookmarks = append(bookmarks, ev)
		case parser.Error:
		default:
			if k, ok := split.key(&ev, rd.Raw()); ok {
				// The parser numbers objects over the whole capture; a
				// share finds its few lanes by uid instead of by an array
				// as long as that numbering.
				ev.Identity = 0
				shares[k] = append(shares[k], ev)
			}
		}
	})
	sessions := rd.Sessions()
	f.Finish(sessions, rd.Diagnostics())
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(shares))
	for k := range shares {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// Making 10 000 virtual clients of a million events takes seconds as
	// wasm: the loop pauses, can be cancelled and says how far it is.
	pace := pacer{pause: b.Pause}
	add := func(vf *FileBuilder, ev parser.Event) bool {
		pace.tick(1)
		return vf.Add(ev)
	}
	for i, k := range keys {
		if b.Cancel != nil && b.Cancel() {
			return ErrCancelled
		}
		if b.Progress != nil {
			b.Progress(ReadProgress{File: name, Bytes: rd.InputBytes(), Events: b.tab.len(), Clients: i, OfClients: len(keys)})
		}
		vf := b.AddFile(name + " [" + k + "]")
		vf.file.SplitOf, vf.file.SplitKey = name, k
		evs, j := shares[k], 0
		full := false
		for _, ev := range evs {
			for ; j < len(bookmarks) && bookmarks[j].Seq < ev.Seq && !full; j++ {
				full = !add(vf, bookmarks[j])
			}
			if full || !add(vf, ev) {
				full = true
				break
			}
		}
		for ; j < len(bookmarks) && !full; j++ {
			full = !add(vf, bookmarks[j])
		}
		vs := make([]parser.Session, len(sessions))
		for i, s := range sessions {
			vs[i] = s
			vs[i].Request = split.request(s.Request, k)
		}
		vf.Finish(vs, nil)
		if full {
			break
		}
	}
	return rd.Err()
}
