package timeline

import (
	"regexp"
	"strconv"
	"strings"
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
)

var libraryNames = [...]string{"unknown", "client-go", "fabric8", "python"}

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
	// WatchList: whether it lists through a WatchList by default.
	WatchList WatchListDefault
	// After410 says in words what it does after a 410, and RelistSource
	// where that relist is served.
	After410     string
	RelistSource RelistSource
	// WatchTimeout and Backoff are its defaults, in words.
	WatchTimeout, Backoff string
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
		p := ClientProfile{Library: LibraryClientGo, Program: m[1], Version: m[2], Minor: minorOf(m[2]), AsksBookmarks: true,
			After410:     "lists again at its last resourceVersion, from the watch cache (with a WatchList that keeps that resourceVersion, when WatchList is on), and from etcd with resourceVersion \"\" only if that fails",
			RelistSource: SourceCache, WatchTimeout: "a random 5 to 10 minutes", Backoff: "0.8 s doubling to 30 s"}
		switch {
		case p.Minor < 0:
			p.WatchList = WatchListUnknown
		case p.Minor >= clientGoWatchList:
			p.WatchList = WatchListOn
		default:
			p.WatchList = WatchListOff
		}
		return p
	case strings.HasPrefix(userAgent, "fabric8-kubernetes-client/"):
		return ClientProfile{Library: LibraryFabric8, Version: strings.TrimPrefix(userAgent, "fabric8-kubernetes-client/"), Minor: -1,
			AsksBookmarks: true, WatchList: WatchListOff, After410: "lists again with resourceVersion \"\", from etcd", RelistSource: SourceEtcd,
			WatchTimeout: "10 minutes (it closes at a random 5 to 10)", Backoff: "1 s doubling to 32 s"}
	case strings.HasPrefix(userAgent, "OpenAPI-Generator/") && strings.HasSuffix(userAgent, "/python"):
		return ClientProfile{Library: LibraryPython, Version: strings.TrimSuffix(strings.TrimPrefix(userAgent, "OpenAPI-Generator/"), "/python"), Minor: -1,
			AsksBookmarks: false, WatchList: WatchListOff, After410: "retries once with the same resourceVersion, then raises the 410 to its caller (its informer lists again without a resourceVersion, from etcd)",
			RelistSource: SourceEtcd, WatchTimeout: "none unless asked", Backoff: "none"}
	}
	return ClientProfile{Minor: -1}
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
	s := p.Library.String()
	if p.Version != "" {
		s += " " + p.Version
	}
	if p.Program != "" {
		s += " (in " + p.Program + ")"
	}
	return s
}

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
	case p.WatchList == WatchListOn && lists > 0 && watchLists == 0:
		out = append(out, p.Words()+" lists through WatchList by default; this client sent LISTs: WatchList was turned off, or the server refused it")
	case p.WatchList == WatchListOff && watchLists > 0:
		out = append(out, p.Words()+" does not list through WatchList by default; this client did")
	}
	return out
}
