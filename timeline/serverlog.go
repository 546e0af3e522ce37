package timeline

import (
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"watchlens/parser"
)

// The API servers' own logs (watch-protocol.md §6, evidence.md §3.3).
//
// A kube-apiserver process starts with a flag dump and its watch caches'
// "cacher initialized" lines; SIGTERM shows as the shutdown event
// "ShutdownInitiated", the end as "apiserver is exiting". A watch cache
// ends every watch of its resource ("Terminating all watchers from
// cacher R") when the process shuts down, and also, with no restart at
// all, when it re-initialises (its own watch of etcd was compacted, or
// failed): every client of that resource on that server must resume
// then, as after a restart of its server.

// ServerLog is one API server's own log.
type ServerLog struct {
	Name string
	// Server is the server's name, from the file's (apiserver-<server>-<n>.log,
	// or the folder of a log named for what it is), "" when it tells none.
	Server string
	// First and Last are its first and last lines' instants.
	First, Last int64
	// Starts are its processes' starts (their flag dumps), Shutdowns the
	// SIGTERMs, Closings when they stopped taking new requests, Exits the
	// exits, each in time order.
	Starts, Shutdowns, Closings, Exits []int64
	// Caches are its watch caches' initialisations and terminations.
	Caches []CacheEvent
}

// restartedWithin says the log shows its server starting, shutting down
// or exiting from from to to.
func (l *ServerLog) restartedWithin(from, to int64) bool {
	for _, ts := range [][]int64{l.Starts, l.Shutdowns, l.Exits} {
		for _, t := range ts {
			if t >= from && t <= to {
				return true
			}
		}
	}
	return false
}

// CacheEvent is a watch cache of a server filled, or ending its watches.
type CacheEvent struct {
	Resource string
	T        int64
	// Initialized: the cache filled from its LIST; else it ended every
	// watch of its resource.
	Initialized bool
	// Reinit: it ended them while its process was not shutting down: a
	// re-initialisation without a restart.
	Reinit bool
}

// isServerLog says whether a klog holds an API server's own lines.
func isServerLog(l *parser.KlogLog) bool {
	for _, kl := range l.Lines {
		switch kl.Kind {
		case parser.KlogServerFlags, parser.KlogCacheInitialized, parser.KlogShutdown:
			return true
		}
	}
	return false
}

// serverLog reads an API server's log's own lines.
func serverLog(name string, l *parser.KlogLog) ServerLog {
	s := ServerLog{Name: name, Server: serverLogName(name), First: l.First, Last: l.Last}
	shuttingDown := false
	for _, kl := range l.Lines {
		switch kl.Kind {
		case parser.KlogServerFlags:
			s.Starts, shuttingDown = append(s.Starts, kl.Time), false
		case parser.KlogShutdown:
			s.Shutdowns, shuttingDown = append(s.Shutdowns, kl.Time), true
		case parser.KlogNotAccepting:
			s.Closings = append(s.Closings, kl.Time)
		case parser.KlogExiting:
			s.Exits = append(s.Exits, kl.Time)
		case parser.KlogCacheInitialized:
			s.Caches = append(s.Caches, CacheEvent{Resource: kl.Type, T: kl.Time, Initialized: true})
		case parser.KlogCacheTerminated:
			s.Caches = append(s.Caches, CacheEvent{Resource: kl.Type, T: kl.Time, Reinit: !shuttingDown})
		}
	}
	return s
}

// serverLogName reads a server's name from its log's name: the name an
// audit log of it would have, without "kube-apiserver" or "apiserver".
func serverLogName(name string) string {
	dir, base := path.Split(strings.ReplaceAll(name, `\`, "/"))
	lower := strings.ToLower(base)
	for _, prefix := range []string{"kube-apiserver", "apiserver"} {
		if rest, ok := strings.CutPrefix(lower, prefix); ok {
			base = strings.TrimLeft(rest, "-_.")
			break
		}
	}
	if strings.TrimSuffix(base, path.Ext(base)) == "" {
		base = "audit" + base // named for what it is: the folder names it
	}
	server, _ := logServerName(dir + base)
	return server
}

// ServerCacheEvent is a watch cache event of a named server.
type ServerCacheEvent struct {
	Server string
	CacheEvent
}

// ResourceName is the cache's resource without its API group, as an
// engineer names it: "rolebindings", not
// "rolebindings.rbac.authorization.k8s.io".
func (e ServerCacheEvent) ResourceName() string {
	name, _, _ := strings.Cut(e.Resource, ".")
	return name
}

// CacheReinits lists the watch caches that ended their watches with no
// restart of their server, in time order.
func (tl *Timeline) CacheReinits() []ServerCacheEvent {
	var out []ServerCacheEvent
	for _, l := range tl.ServerLogs {
		for _, c := range l.Caches {
			if c.Reinit {
				out = append(out, ServerCacheEvent{l.Server, c})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

// ServerLogRestart is a restart an API server's logs show: SIGTERM to the
// old process, then a new process's start.
type ServerLogRestart struct {
	Server            string
	SIGTERM, NewStart int64
}

// ServerLogRestarts pairs each process's SIGTERM with the next start of a
// process of the same server, in its log or in a later log of it.
func (tl *Timeline) ServerLogRestarts() []ServerLogRestart {
	byServer := map[string][]*ServerLog{}
	for k := range tl.ServerLogs {
		l := &tl.ServerLogs[k]
		byServer[l.Server] = append(byServer[l.Server], l)
	}
	// In the servers' order by name: restarts of two servers at one
	// instant keep one order, run after run.
	var out []ServerLogRestart
	for _, server := range slices.Sorted(maps.Keys(byServer)) {
		logs := byServer[server]
		var starts []int64
		for _, l := range logs {
			starts = append(starts, l.Starts...)
		}
		sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
		for _, l := range logs {
			for _, term := range l.Shutdowns {
				k := sort.Search(len(starts), func(i int) bool { return starts[i] > term })
				if k < len(starts) {
					out = append(out, ServerLogRestart{server, term, starts[k]})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SIGTERM < out[j].SIGTERM })
	return out
}
