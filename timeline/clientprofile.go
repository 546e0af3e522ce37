package timeline

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"watchlens/parser"
)

// Client profiles: what a client's library does by default, read from its
// User-Agent (evidence.md §2, cited there). A verdict says what the
// server would answer; the profile says what the client does next.

// Library is a Kubernetes client library.
type Library uint8

const (
	LibraryUnknown Library = iota
	// LibraryClientGo is client-go, and what embeds it: kubectl, the
	// kubelet, kube-controller-manager, controller-runtime managers.
	LibraryClientGo
	LibraryFabric8
	LibraryPython
	// LibraryJavaScript is @kubernetes/client-node.
	LibraryJavaScript
	LibraryKubeRS
)

var libraryNames = [...]string{"unknown", "client-go", "fabric8", "python", "javascript", "kube-rs"}

func (l Library) String() string { return libraryNames[l] }

// ClientProfile is what a client library does by default.
type ClientProfile struct {
	Library Library
	// Program is what embeds client-go ("kubectl", "kube-controller-manager",
	// the program's own name), "" for the other libraries.
	Program string
	// Version is the version the User-Agent gives ("v0.37.2"), "" when
	// none; Minor its minor Kubernetes release (client-go v0.37 and
	// Kubernetes 1.37 are one), -1 when unknown (a build without a
	// version stamp says v0.0.0).
	Version string
	Minor   int
	// AsksBookmarks: its watches ask for bookmarks unless told not to.
	AsksBookmarks bool
	// WatchList: whether it lists through a WatchList by default, from
	// its version, or from its log's feature gate, which WatchListSaidBy
	// then says in words ("" otherwise).
	WatchList       WatchListDefault
	WatchListSaidBy string
	// After410 says in words what it does after a 410, and RelistSource
	// where that relist is served.
	After410     string
	RelistSource RelistSource
	// WatchTimeout and Backoff are its defaults, in words.
	WatchTimeout, Backoff string
	// RecognisedBy says how the library was told when its User-Agent does
	// not name it, "" when it does.
	RecognisedBy string
}

// WatchListDefault is whether a library lists through a WatchList by
// default.
type WatchListDefault uint8

const (
	// WatchListUnknown: a client-go whose User-Agent gives no version.
	WatchListUnknown WatchListDefault = iota
	WatchListOn
	WatchListOff
)

var watchListDefaultNames = [...]string{"unknown", "on", "off"}

func (w WatchListDefault) String() string { return watchListDefaultNames[w] }

// clientGoUA is client-go's rest.DefaultKubernetesUserAgent():
// "PROGRAM/VERSION (OS/ARCH) kubernetes/COMMIT".
var clientGoUA = regexp.MustCompile(`^([^/ ]+)/(v[0-9][^ ]*) \([^/ )]+/[^ )]+\) kubernetes/\S+`)

// clientGoWatchList is the first minor release whose client-go lists
// through WatchList by default.
const clientGoWatchList = 35

// ProfileOf recognises the client library of a User-Agent.
func ProfileOf(userAgent string) ClientProfile {
	switch {
	case clientGoUA.MatchString(userAgent):
		m := clientGoUA.FindStringSubmatch(userAgent)
		return clientGoProfile(m[1], m[2], minorOf(m[2]))
	case strings.HasPrefix(userAgent, "fabric8-kubernetes-client/"):
		return fabric8Profile(strings.TrimPrefix(userAgent, "fabric8-kubernetes-client/"))
	case strings.HasPrefix(userAgent, javaScriptUA):
		return javaScriptProfile(strings.TrimPrefix(userAgent, javaScriptUA))
	case userAgent == undiciUA:
		p := javaScriptProfile("")
		p.RecognisedBy = "its User-Agent is undici's default, which the JavaScript client's watches carry; any other Node.js program that fetches with undici sends the same"
		return p
	case strings.HasPrefix(userAgent, "OpenAPI-Generator/") && strings.HasSuffix(userAgent, "/python"):
		return pythonProfile(strings.TrimSuffix(strings.TrimPrefix(userAgent, "OpenAPI-Generator/"), "/python"))
	}
	return ClientProfile{Minor: -1}
}

// clientGoProfile is client-go's profile, embedded in program at version
// (minor its minor release, -1 when unknown; "" when unknown).
func clientGoProfile(program, version string, minor int) ClientProfile {
	p := ClientProfile{Library: LibraryClientGo, Program: program, Version: version, Minor: minor, AsksBookmarks: true,
		After410:     "lists again at its last resourceVersion, from the watch cache (with a WatchList that keeps that resourceVersion, when WatchList is on), and from etcd with resourceVersion \"\" only if that fails",
		RelistSource: SourceCache, WatchTimeout: "a random 5 to 10 minutes", Backoff: "0.8 s doubling to 30 s"}
	switch {
	case minor < 0:
		p.WatchList = WatchListUnknown
	case minor >= clientGoWatchList:
		p.WatchList = WatchListOn
	default:
		p.WatchList = WatchListOff
	}
	return p
}

// fabric8Profile is fabric8's profile at version (evidence.md §2).
func fabric8Profile(version string) ClientProfile {
	return ClientProfile{Library: LibraryFabric8, Version: version, Minor: -1,
		AsksBookmarks: true, WatchList: WatchListOff, After410: "lists again with resourceVersion \"\", from etcd", RelistSource: SourceEtcd,
		WatchTimeout: "10 minutes (it closes at a random 5 to 10)", Backoff: "1 s doubling to 32 s"}
}

// pythonProfile is the Python client's profile at version (evidence.md
// §2).
func pythonProfile(version string) ClientProfile {
	return ClientProfile{Library: LibraryPython, Version: version, Minor: -1,
		AsksBookmarks: false, WatchList: WatchListOff, After410: "retries once with the same resourceVersion, then raises the 410 to its caller (its informer lists again without a resourceVersion, from etcd)",
		RelistSource: SourceEtcd, WatchTimeout: "none unless asked", Backoff: "none"}
}

// The JavaScript client (@kubernetes/client-node) 2.0.0 sets its
// User-Agent, "kubernetes-client-javascript/VERSION", on the requests of
// the API clients makeApiClient makes (`src/config.ts` l.68–73, l.552),
// so on an informer's LISTs; its Watch sends its requests with undici's
// fetch and headers of its own, without one (`src/watch.ts` l.4,
// l.47–68), so undici adds its default, "undici" ("node" only in the
// copy built into Node.js; `lib/web/fetch/index.js`).
const (
	javaScriptUA = "kubernetes-client-javascript/"
	undiciUA     = "undici"
)

// javaScriptProfile is the JavaScript client's profile at version
// ("2.0.0"; "" when unknown), from evidence.md §2: no bookmarks asked; a
// 410 clears its resourceVersion and its next connect calls the caller's
// list function, usually with none; 2.0.0 aborts each watch 30 s after
// it starts (kubernetes-client/javascript#3020, fixed after 2.0.0) and
// backs off 1 s doubling to 30 s, where 1.x had no backoff.
func javaScriptProfile(version string) ClientProfile {
	p := ClientProfile{Library: LibraryJavaScript, Version: version, Minor: -1, AsksBookmarks: false, WatchList: WatchListOff,
		After410:     "calls its caller's list function again, usually with no resourceVersion, served from etcd",
		RelistSource: SourceEtcd, WatchTimeout: "none sent (the server's 30 to 60 minutes)", Backoff: "1 s doubling to 30 s, reset by any event"}
	switch {
	case version == "2.0.0":
		p.WatchTimeout = "none sent, but 2.0.0 aborts every watch 30 s after it starts and resumes from its last resourceVersion"
	case strings.HasPrefix(version, "0.") || strings.HasPrefix(version, "1."):
		p.Backoff = "none"
	}
	return p
}

// kubeRSProfile is kube-rs's watcher's profile (evidence.md §2, 4.2.0):
// it asks for bookmarks; after a 410 it lists again with no
// resourceVersion (ListSemantic::MostRecent) in pages of 500; it asks
// for timeoutSeconds=290; its watcher does not back off, a Controller or
// default_backoff() does. kube-rs sends no User-Agent: kube-client sets
// none (no User-Agent anywhere in `kube-client/src`, 4.2.0) and hyper
// adds none.
func kubeRSProfile() ClientProfile {
	return ClientProfile{Library: LibraryKubeRS, Minor: -1, AsksBookmarks: true, WatchList: WatchListOff,
		After410:     "lists again with no resourceVersion (the most recent state) in pages of 500, served from etcd",
		RelistSource: SourceEtcd, WatchTimeout: "290 s", Backoff: "none in its watcher; 0.8 s doubling to 30 s with default_backoff() or a Controller"}
}

// FileProfile is the client library of a file: as its User-Agent says;
// else, for a file read from a library's own log, that library; else,
// for requests with no User-Agent whose queries begin with "&", kube-rs,
// which writes its queries so ("?&watch=true&timeoutSeconds=290...",
// `kube-core/src/request.rs` tests l.488–558) and sends no User-Agent.
// A client-go whose log gives the WatchListClient feature gate's state
// lists through WatchList as the gate says, whatever its version.
func (tl *Timeline) FileProfile(fi int) ClientProfile {
	p := tl.libraryProfile(fi)
	if f := &tl.Files[fi]; p.Library == LibraryClientGo && f.WatchListGate != WatchListUnknown {
		p.WatchList = f.WatchListGate
		p.WatchListSaidBy = "its log, " + path.Base(f.ownLog()) + ", says the WatchListClient feature gate is " + f.WatchListGate.String()
	}
	return p
}

// libraryProfile is the profile of the library a file's User-Agent, its
// log or its requests show, before its log's feature gate (FileProfile).
func (tl *Timeline) libraryProfile(fi int) ClientProfile {
	ua := tl.UserAgent(fi)
	p := ProfileOf(ua)
	if p.Library != LibraryUnknown {
		return p
	}
	f := &tl.Files[fi]
	switch f.Library {
	case "kube-rs":
		p = kubeRSProfile()
	case "fabric8":
		p = fabric8Profile("")
	case "python":
		p = pythonProfile("")
	case "":
		// client-go's log (parser.ReadKlog); a log of no client is no
		// client's.
		if f.ownLog() != "" && len(f.Sessions) > 0 {
			p = clientGoProfile("", "", -1)
		}
	}
	if p.Library != LibraryUnknown {
		switch {
		case f.Audit && f.Log != "":
			p.RecognisedBy = "read from its own log, " + path.Base(f.Log)
		case f.Audit:
			p.RecognisedBy = "its own log, " + path.Base(f.LogJoined) + ", shows the same requests"
		default:
			p.RecognisedBy = "its own log, " + path.Base(f.Log) + ", shows the same requests"
		}
		return p
	}
	for _, g := range f.Sessions {
		if q := tl.Sessions[g].Request; q != nil && sentByClientGo(q) {
			p = clientGoProfile("", "", -1)
			p.RecognisedBy = fmt.Sprintf("its watches send timeout=%s beside timeoutSeconds=%d, as client-go's typed clients do", q.Timeout, q.TimeoutSeconds)
			return p
		}
	}
	if ua != "" {
		return p
	}
	for _, g := range f.Sessions {
		if q := tl.Sessions[g].Request; q != nil && strings.HasPrefix(q.Query, "&") {
			p = kubeRSProfile()
			p.RecognisedBy = "its requests carry no User-Agent and their queries begin with \"&\", as kube-rs writes them"
			return p
		}
	}
	return p
}

// sentByClientGo says a watch request was sent by client-go's REST
// client: its typed and metadata clients give a watch's timeoutSeconds to
// the request as its timeout too (`gentype/type.go` Watch l.189–201,
// `metadata/metadata.go` l.253–264), and the request sends that in the
// query as "timeout" in Go's form (`rest/request.go` l.578–581), so
// "timeout=8m14s&timeoutSeconds=494". No other library sends timeout.
func sentByClientGo(q *parser.Request) bool {
	return q.Watch && q.TimeoutSeconds > 0 && q.Timeout == (time.Duration(q.TimeoutSeconds)*time.Second).String()
}

// minorOf reads the minor release of "v0.37.2" (client-go) or "v1.37.2"
// (Kubernetes); -1 for v0.0.0 or what is not a version.
func minorOf(v string) int {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	if len(parts) < 2 {
		return -1
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || major > 1 || major == 0 && minor == 0 {
		return -1
	}
	return minor
}

// Words names the profile as a sentence says it: "client-go v0.37.2
// (in fleet)", "fabric8 6.9.2", "an unknown client library".
func (p ClientProfile) Words() string {
	if p.Library == LibraryUnknown {
		return "an unknown client library"
	}
	s := p.LibraryWords()
	if p.Program != "" {
		s += " (in " + p.Program + ")"
	}
	return s
}

// LibraryWords names the library and its version as a table's cell
// says them: "client-go v0.37.2", "fabric8 6.9.2", "unknown". A
// client-go built without a version stamp (a plain go build leaves
// client-go's version.Get() unset) says v0.0.0 in its User-Agent, which
// is no release: "client-go, version not stamped".
func (p ClientProfile) LibraryWords() string {
	s := p.Library.String()
	switch {
	case p.Library == LibraryClientGo && p.Version == unstampedVersion:
		s += ", version not stamped"
	case p.Version != "":
		s += " " + p.Version
	}
	return s
}

// unstampedVersion is the version client-go's User-Agent gives when its
// build stamped none (rest.DefaultKubernetesUserAgent cuts
// "v0.0.0-master+$Format:%H$" at its "-").
const unstampedVersion = "v0.0.0"

// ProfileDifferences says where a client's recorded requests differ from its
// library's defaults: its options were changed, or the profile is wrong
// for this build.
func (tl *Timeline) ProfileDifferences(file int, p ClientProfile) []string {
	if p.Library == LibraryUnknown {
		return nil
	}
	var out []string
	asked, watched, lists, watchLists := true, false, 0, 0
	for _, g := range tl.Files[file].Sessions {
		s := &tl.Sessions[g]
		switch {
		case s.IsWatchList():
			watchLists++
		case s.isList() && !tl.continues(s):
			lists++
		}
		if s.Request != nil && s.Request.Watch {
			watched = true
			asked = asked && s.Request.AllowWatchBookmarks
		}
	}
	if watched && p.AsksBookmarks && !asked {
		out = append(out, p.Library.String()+" asks for bookmarks by default; this client did not: its watch options were changed")
	}
	if watched && !p.AsksBookmarks && asked {
		out = append(out, p.Library.String()+" does not ask for bookmarks by default; this client did")
	}
	switch {
	case p.WatchList == WatchListOn && lists > 0 && watchLists == 0 && p.WatchListSaidBy != "":
		out = append(out, p.WatchListSaidBy+"; this client sent LISTs: the server refused its WatchLists")
	case p.WatchList == WatchListOn && lists > 0 && watchLists == 0:
		out = append(out, p.Words()+" lists through WatchList by default; this client sent LISTs: WatchList was turned off, or the server refused it")
	case p.WatchList == WatchListOff && watchLists > 0 && p.WatchListSaidBy != "":
		out = append(out, p.WatchListSaidBy+"; this client sent WatchLists all the same")
	case p.WatchList == WatchListOff && watchLists > 0:
		out = append(out, p.Words()+" does not list through WatchList by default; this client did")
	}
	return out
}
