package timeline

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Which API server answered.
//
// No response header names the server, but every response carries the
// Audit-Id under which the server that answered logged the request, and
// each server writes its own audit log (evidence.md §4): the log holding a
// capture's Audit-Id names its server. The logs are grouped into servers
// by their names, and a server's logs into incarnations (processes) by
// their loopback user's uid, which is new at every start
// (parser.AuditLog.Process): rotated files of one process keep it.

// Server is one API server as its audit logs show it.
type Server struct {
	// Name is the server's name: from Builder.ServerOf, else from its
	// logs' names (audit-<name>-<n>.log, or the folder of a log named
	// only audit.log).
	Name string
	// Incarnations are its processes, in time order.
	Incarnations []Incarnation
	// Metrics is the server's name in the Prometheus exports, "" when
	// they have none of it (see matchMetricServers).
	Metrics string
}

// Incarnation is one process of a server: the span its logs cover and
// the logs (indices in Timeline.AuditLogs, in time order).
type Incarnation struct {
	From, To int64
	// Closing is the first instant the process may have taken no new
	// request, shutting down, though it served its open watches on to To
	// (closing.go), ClosingBy the first by which it surely took none;
	// the same instant where its own log or its audit log dates it, and 0
	// when no record does. ClosingSource says which record does.
	Closing, ClosingBy int64
	ClosingSource      ClosingSource
	Logs               []int
	// Process is the uid of the process's loopback user, "" when no log
	// of it shows one.
	Process string
}

// serverRef names the server, and its process, that a reconnect went to:
// indices in Timeline.Servers and its Incarnations, -1 when not known.
type serverRef struct{ server, incarnation int }

// anyServer is a reconnect whose server is not known.
var anyServer = serverRef{-1, -1}

// answeredBy is the server that answered the session.
func (s *Session) answeredBy() serverRef { return serverRef{s.Server, s.Incarnation} }

// ServerOf says which server answered session g: the index in Servers
// and of the incarnation in its Incarnations, ok false when unknown.
func (tl *Timeline) ServerOf(g int) (server, incarnation int, ok bool) {
	s := &tl.Sessions[g]
	return s.Server, s.Incarnation, s.Server >= 0
}

// ServerName names session g's server, "" when unknown.
func (tl *Timeline) ServerName(g int) string {
	if s := tl.Sessions[g].Server; s >= 0 {
		return tl.Servers[s].Name
	}
	return ""
}

// ProcessName names a server's process as every view and report does:
// "a#2" is server a's second, inc counting from 0 (Sessions' Incarnation).
func ProcessName(server string, inc int) string {
	return server + "#" + strconv.Itoa(inc+1)
}

// ServerPath is the server processes that answered file f's sessions, in
// order, one entry per change ("a#1", "c#1", "a#2"); the sessions no record
// attributes are left out, so a process on both sides of one is named once.
func (tl *Timeline) ServerPath(f int) []string {
	var out []string
	last := [2]int{-1, -1}
	for _, g := range tl.Files[f].Sessions {
		srv, inc, ok := tl.ServerOf(g)
		if !ok || last == [2]int{srv, inc} {
			continue
		}
		last = [2]int{srv, inc}
		out = append(out, ProcessName(tl.Servers[srv].Name, inc))
	}
	return out
}

// PathWords writes a ServerPath as a sentence reads it: "a#1 → c#1 → a#2".
func PathWords(path []string) string { return strings.Join(path, " → ") }

// auditIndex finds the audit log of a request by its auditID: a hash of
// each id and the log it is in, sorted by hash, 16 bytes a request where
// a map by id kept the 36-byte strings too. Two ids of one hash are
// found together, and a capture's id found in two servers' logs is
// left unknown: wrong only if a capture's id is in no log and another
// has its 64-bit hash.
type auditIndex struct {
	entries []auditEntry
	sorted  bool
}

type auditEntry struct {
	h   uint64
	log int32
}

// idHash is the 64-bit FNV-1a hash of an id.
func idHash(id string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return h
}

// add records that log holds the request id.
func (x *auditIndex) add(id string, log int) {
	x.entries = append(x.entries, auditEntry{idHash(id), int32(log)})
	x.sorted = false
}

// logs calls each for every log holding the request id.
func (x *auditIndex) logs(id string, each func(log int)) {
	if !x.sorted {
		sort.Slice(x.entries, func(i, j int) bool {
			a, b := x.entries[i], x.entries[j]
			return a.h < b.h || a.h == b.h && a.log < b.log
		})
		x.sorted = true
	}
	h := idHash(id)
	k := sort.Search(len(x.entries), func(i int) bool { return x.entries[i].h >= h })
	for ; k < len(x.entries) && x.entries[k].h == h; k++ {
		each(int(x.entries[k].log))
	}
}

// logServerName reads a server's name from an audit log's name:
// audit-<server>-<n>.log (n numbers its incarnations or rotations, and
// number is "-<n>"), or, for a log named only for what it is (audit.log,
// its rotated audit-<time>.log, kube-apiserver-audit.log), the folder it
// is in: one folder per control-plane host. "" when the name tells
// nothing.
func logServerName(name string) (server, number string) {
	name = strings.ReplaceAll(name, `\`, "/")
	dir, base := path.Split(name)
	base = strings.ToLower(base)
	// The extensions, and logrotate's number (audit.log.1.gz).
	for more := true; more; {
		more = false
		for _, ext := range logExtensions {
			if b, ok := strings.CutSuffix(base, ext); ok && b != "" {
				base, more = b, true
			}
		}
		if m := rotatedNumber.FindStringIndex(base); m != nil && m[0] > 0 {
			base, more = base[:m[0]], true
		}
	}
	base = rotatedSuffix.ReplaceAllString(base, "")
	rest := base
	for _, prefix := range []string{"kube-apiserver-audit", "apiserver-audit", "audit"} {
		if r, ok := strings.CutPrefix(rest, prefix); ok {
			rest = strings.TrimLeft(r, "-_.")
			break
		}
	}
	if rest != "" {
		if m := numberSuffix.FindStringSubmatch(rest); m != nil {
			return m[1], m[2]
		}
		return rest, ""
	}
	if dir = strings.TrimSuffix(dir, "/"); dir != "" {
		return path.Base(dir), ""
	}
	return "", ""
}

var (
	// logExtensions are what an audit log's name may end with.
	logExtensions = []string{".gz", ".zst", ".zstd", ".log", ".json", ".jsonl", ".txt"}
	// rotatedNumber is the number logrotate adds after the extension.
	rotatedNumber = regexp.MustCompile(`\.\d+$`)
	// rotatedSuffix is the time the log rotation (lumberjack, as
	// kube-apiserver's --audit-log-maxsize uses) adds to a rotated
	// file's name: audit-2026-12-01T18-09-20.123.log.
	rotatedSuffix = regexp.MustCompile(`(?i)[-_.]?\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(\.\d+)?$`)
	// numberSuffix is a name's trailing number: a-1 is server a's log 1.
	numberSuffix = regexp.MustCompile(`^(.+?)([-_.]\d+)$`)
)

// groupServers groups the audit logs into servers and incarnations and
// says which server answered each session: a capture's by its Audit-Id, a
// client's from audit logs by its log.
func (b *Builder) groupServers(tl *Timeline) {
	for g := range tl.Sessions {
		tl.Sessions[g].Server, tl.Sessions[g].Incarnation = -1, -1
	}
	logs := tl.AuditLogs
	if len(logs) == 0 {
		return
	}
	names := b.logServerNames(logs)
	byName := map[string]int{}
	var order []string
	for i := range logs {
		if _, ok := byName[names[i]]; !ok {
			byName[names[i]] = len(order)
			order = append(order, names[i])
		}
	}
	sort.Strings(order)
	for k, n := range order {
		byName[n] = k
	}
	tl.Servers = make([]Server, len(order))
	members := make([][]int, len(order))
	for i := range logs {
		k := byName[names[i]]
		members[k] = append(members[k], i)
	}
	// logAt[i] is log i's server and incarnation.
	logAt := make([][2]int, len(logs))
	for k, name := range order {
		srv := &tl.Servers[k]
		srv.Name = name
		ls := members[k]
		sort.SliceStable(ls, func(x, y int) bool { return logs[ls[x]].First < logs[ls[y]].First })
		for _, i := range ls {
			l := &logs[i]
			n := len(srv.Incarnations)
			// A log of the process before continues its incarnation (a
			// rotation); one of another process starts a new one. A log
			// that shows no process cannot tell: it continues.
			if n == 0 || l.Process != "" && srv.Incarnations[n-1].Process != "" && l.Process != srv.Incarnations[n-1].Process {
				srv.Incarnations = append(srv.Incarnations, Incarnation{From: l.First, To: l.Last, Process: l.Process})
				n++
			}
			inc := &srv.Incarnations[n-1]
			inc.Logs = append(inc.Logs, i)
			inc.From, inc.To = min(inc.From, l.First), max(inc.To, l.Last)
			if inc.Process == "" {
				inc.Process = l.Process
			}
			logAt[i] = [2]int{k, n - 1}
		}
	}
	for g := range tl.Sessions {
		s := &tl.Sessions[g]
		if l, ok := b.auditLog[g]; ok {
			s.Server, s.Incarnation = logAt[l][0], logAt[l][1]
			continue
		}
		if s.auditID == "" {
			continue
		}
		found, one := [2]int{-1, -1}, true
		b.auditIDs.logs(s.auditID, func(l int) {
			switch at := logAt[l]; {
			case found[0] < 0:
				found = at
			case found != at:
				// The id is in logs of two servers (an aggregated
				// API's request is logged by both): neither is sure.
				one = false
			}
		})
		if one {
			s.Server, s.Incarnation = found[0], found[1]
		}
	}
	b.auditIDs = auditIndex{}
}

// logServerNames names each log's server: as Builder.ServerOf says, else
// from its name (logServerName). A number after the name (a-1, a-2)
// counts one server's logs only while they follow each other in time;
// logs that overlap are of different servers (cp-1, cp-2), each keeping
// its number. A log whose name tells nothing joins the server of another
// log of its process, else is a server of its own, named after the file.
func (b *Builder) logServerNames(logs []AuditLog) []string {
	names := make([]string, len(logs))
	numbers := make([]string, len(logs))
	for i, l := range logs {
		if n, ok := b.ServerOf[l.Name]; ok {
			names[i] = n
		} else if n, ok := b.ServerOf[path.Base(strings.ReplaceAll(l.Name, `\`, "/"))]; ok {
			names[i] = n
		} else {
			names[i], numbers[i] = logServerName(l.Name)
		}
	}
	groups := map[string][]int{}
	for i := range logs {
		if numbers[i] != "" {
			groups[names[i]] = append(groups[names[i]], i)
		}
	}
	for _, ls := range groups {
		sort.Slice(ls, func(x, y int) bool { return logs[ls[x]].First < logs[ls[y]].First })
		for k := 1; k < len(ls); k++ {
			if logs[ls[k]].First < logs[ls[k-1]].Last-logOverlap {
				for _, i := range ls {
					names[i] += numbers[i]
				}
				break
			}
		}
	}
	byProcess := map[string]string{}
	for i, l := range logs {
		if names[i] != "" && l.Process != "" {
			byProcess[l.Process] = names[i]
		}
	}
	taken := map[string]bool{}
	for _, n := range names {
		taken[n] = true
	}
	for i, l := range logs {
		if names[i] != "" {
			continue
		}
		if n, ok := byProcess[l.Process]; ok && l.Process != "" {
			names[i] = n
			continue
		}
		n := path.Base(strings.ReplaceAll(l.Name, `\`, "/"))
		for k := 2; taken[n]; k++ {
			n = fmt.Sprintf("%s (%d)", path.Base(strings.ReplaceAll(l.Name, `\`, "/")), k)
		}
		names[i], taken[n] = n, true
		if l.Process != "" {
			byProcess[l.Process] = n
		}
	}
	return names
}

// logOverlap is how far two logs of one server may overlap in time: the
// stages of requests in flight are written a little out of order.
const logOverlap = int64(1e9)

// restarted says whether a server's audit logs show a restart.
func (tl *Timeline) restarted() bool {
	for _, s := range tl.Servers {
		if len(s.Incarnations) > 1 {
			return true
		}
	}
	return false
}

// Matching the metrics' servers to the audit logs' servers.
//
// The Prometheus exports name a server by a label (Metrics.ServerLabel),
// the audit logs by their files' names: the two agree when the user named
// both alike (the lab's audit-a-1.log and server="a"). Where they do not,
// a server restarts at the same instant in both records: its new
// process's counters start from 0 in the metrics, and its new audit log
// starts. Builder.MetricsServerOf settles what neither tells.

// restartMatchTolerance is how far a restart in the metrics may be from
// the start of the new process's audit log: the process starts, fills
// its caches and only then serves and logs requests.
const restartMatchTolerance = int64(30 * time.Second)

// matchMetricServers sets each server's Metrics name; with no audit log,
// the servers are the metrics' own, their processes split at the
// restarts their counters show.
func (b *Builder) matchMetricServers(tl *Timeline) {
	m := tl.Metrics
	if m == nil || len(m.Servers) == 0 {
		return
	}
	if len(tl.Servers) == 0 {
		for _, name := range m.Servers {
			tl.Servers = append(tl.Servers, m.serverOfMetrics(name))
		}
		return
	}
	taken := map[string]bool{}
	has := map[string]bool{}
	for _, n := range m.Servers {
		has[n] = true
	}
	// The user's word, then the names that agree.
	for k := range tl.Servers {
		s := &tl.Servers[k]
		if n, ok := b.MetricsServerOf[s.Name]; ok && has[n] {
			s.Metrics, taken[n] = n, true
		}
	}
	for k := range tl.Servers {
		s := &tl.Servers[k]
		if s.Metrics == "" && has[s.Name] && !taken[s.Name] {
			s.Metrics, taken[s.Name] = s.Name, true
		}
	}
	// Then the restarts: a metrics server whose restarts are, one for
	// one, near the audit logs' new processes, and the only one.
	for k := range tl.Servers {
		s := &tl.Servers[k]
		if s.Metrics != "" || len(s.Incarnations) < 2 {
			continue
		}
		var found []string
		for _, n := range m.Servers {
			if !taken[n] && restartsAgree(s.Incarnations, m.Restarts(n)) {
				found = append(found, n)
			}
		}
		if len(found) == 1 {
			s.Metrics, taken[found[0]] = found[0], true
		}
	}
}

// restartsAgree says whether each new process of the audit logs started
// near one of the metrics' restarts, as many of them.
func restartsAgree(incs []Incarnation, restarts []int64) bool {
	if len(restarts) != len(incs)-1 {
		return false
	}
	for k, r := range restarts {
		if d := incs[k+1].From - r; d < -restartMatchTolerance || d > restartMatchTolerance {
			return false
		}
	}
	return true
}

// serverOfMetrics is a server as its metrics alone show it: a process
// from each restart to the next, spanning its points, up to the last
// scrape it answered before the failed ones that came before its restart
// (a new process's start, its boot time, may come a second late, after
// its first point).
func (m *Metrics) serverOfMetrics(name string) Server {
	s := Server{Name: name, Metrics: name}
	from, to := m.span(name)
	for _, r := range m.Restarts(name) {
		last := m.lastBefore(name, r)
		if answered := m.lastAnsweredBeforeFailures(name, r); answered != 0 {
			last = min(last, answered)
		}
		s.Incarnations = append(s.Incarnations, Incarnation{From: from, To: last})
		from = r
	}
	s.Incarnations = append(s.Incarnations, Incarnation{From: from, To: to})
	return s
}
