package timeline

import (
	"io"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"watchlens/parser"
)

// Metrics from Prometheus exports.
//
// Each API server exports its own watch caches' state (evidence.md §1):
// per resource, the cache's resourceVersion (the head it has seen), its
// capacity, the events it received and how often it was (re)initialised;
// its process start time; the LISTs and WATCHes it served. etcd's own
// metrics, where it was scraped, give its head and the revision it last
// compacted to. The exports are series over time with labels; the
// Metrics keep them and answer per server and resource. A server is
// named by a label of its series (ServerLabel): the `instance`
// Prometheus gives every target, or a label the user added.

// MetricsFile is one Prometheus export as read.
type MetricsFile struct {
	Name   string
	Format parser.MetricsFormat
	// Series and Points count what the file held; Skipped what the
	// parser left out (its bounds, native histograms).
	Series, Points, Skipped int
	// At is a scrape's instant: its Date header, or that of the headers
	// file beside it (Builder.AddMetrics pairs them); 0 when unknown.
	At int64
	// Server is the server a raw scrape is of: the one whose exported
	// series agree with its values, else its file's name.
	Server      string
	Diagnostics []parser.Diagnostic
}

// MetricSeries is one series of the exports, its points from every file
// that held it, in time order: the parser's series, merged.
type MetricSeries = parser.MetricSeries

// The metric names the Metrics read (evidence.md §1.2; the capacity has
// no apiserver_ prefix).
const (
	metricHeadRV    = "apiserver_watch_cache_resource_version"
	metricCapacity  = "watch_cache_capacity"
	metricReceived  = "apiserver_watch_cache_events_received_total"
	metricInits     = "apiserver_watch_cache_initializations_total"
	metricStart     = "process_start_time_seconds"
	metricRequests  = "apiserver_request_total"
	metricEtcdHead  = "etcd_debugging_mvcc_current_revision"
	metricCompacted = "etcd_debugging_mvcc_compact_revision"
	// metricUp is Prometheus's own series of each scrape: 1 when the
	// target answered, 0 when it did not.
	metricUp = "up"
)

// Metrics is what the Prometheus exports say, per server and resource.
type Metrics struct {
	Files []MetricsFile
	// Series are every series read, files merged; the typed accessors
	// below read them.
	Series []MetricSeries
	// ServerLabel is the label whose value names a server.
	ServerLabel string
	// Servers are the servers' names, sorted.
	Servers []string
	// From and To bound the points with an instant.
	From, To int64

	// rvBase is added to a head RV read: kube-apiserver 1.36+ exports the
	// RV modulo 1e15, and the captures say which 1e15 the RVs are in.
	rvBase uint64
	head   map[serverResource]*metricPoints
	cap    map[serverResource]*metricPoints
	recv   map[serverResource]*metricPoints
	inits  map[serverResource][]*metricPoints
	starts map[string][]float64
	up     map[string]*metricPoints
	reqs   map[requestKey][]*metricPoints
	etcd   *metricPoints
	compac *metricPoints
	// etcdHighest is, at each of etcd's points, the highest revision shown
	// so far (see EtcdBelow).
	etcdHighest []float64
	// serverResets are resets(server), per server.
	serverResets map[string][]counterReset
	// processes are the processes' changes found so far (changesOf).
	processes processMemo
}

type serverResource struct{ server, resource string }

type requestKey struct{ server, resource, verb string }

// metricPoints is one series' points with an instant, and how long a
// point holds: Prometheus repeats a sample every step while it is fresh
// and leaves a gap once it is stale, so a point holds for about a step;
// a lone point (a scrape) for the 5 minutes of Prometheus's lookback.
type metricPoints struct {
	t        []int64
	v        []float64
	lookback int64
}

// promLookback is Prometheus's default lookback delta.
const promLookback = int64(5 * time.Minute)

// newMetricPoints are the series' points that have an instant. They
// share its columns where every point has one, as in a query's export:
// the lab's exports hold millions of points, and Metrics.index, which
// asks this of every series once its columns are final, would otherwise
// copy each.
func newMetricPoints(s *MetricSeries) *metricPoints {
	p := &metricPoints{lookback: promLookback, t: s.T, v: s.V}
	if slices.Contains(s.T, 0) {
		p.t, p.v = make([]int64, 0, len(s.T)), make([]float64, 0, len(s.T))
		for i, t := range s.T {
			if t != 0 {
				p.t, p.v = append(p.t, t), append(p.v, s.V[i])
			}
		}
	}
	p.setLookback()
	return p
}

// setLookback sets the lookback to twice the smallest step.
func (p *metricPoints) setLookback() {
	step := int64(0)
	for i := 1; i < len(p.t); i++ {
		if d := p.t[i] - p.t[i-1]; d > 0 && (step == 0 || d < step) {
			step = d
		}
	}
	if step > 0 {
		p.lookback = 2 * step
	}
}

// at is the value at t: the last point at or before t, if it still
// holds.
func (p *metricPoints) at(t int64) (float64, bool) {
	k := sort.Search(len(p.t), func(i int) bool { return p.t[i] > t })
	if k == 0 || t-p.t[k-1] > p.lookback || math.IsNaN(p.v[k-1]) {
		return 0, false
	}
	return p.v[k-1], true
}

// merge combines points of several series into one (a server label
// that several series share): at one instant the highest value.
func mergePoints(ps []*metricPoints) *metricPoints {
	if len(ps) == 1 {
		return ps[0]
	}
	type pt struct {
		t int64
		v float64
	}
	var all []pt
	for _, p := range ps {
		for i := range p.t {
			all = append(all, pt{p.t[i], p.v[i]})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].t < all[j].t || all[i].t == all[j].t && all[i].v < all[j].v })
	out := &metricPoints{lookback: promLookback}
	for _, q := range all {
		if n := len(out.t); n > 0 && out.t[n-1] == q.t {
			out.v[n-1] = q.v
			continue
		}
		out.t, out.v = append(out.t, q.t), append(out.v, q.v)
	}
	out.setLookback()
	return out
}

// metricsExport is an export added, before Build pairs scrapes with
// their headers.
type metricsExport struct {
	name string
	m    *parser.MetricsExport
}

// addMetricsReader reads name as a Prometheus export.
func (b *Builder) addMetricsReader(name string, r io.Reader, opts parser.Options) error {
	lr := b.logReader(name, r)
	m, err := parser.ReadMetrics(lr, opts)
	lr.done()
	b.AddMetrics(name, m)
	return err
}

// AddMetrics adds a Prometheus export read by parser.ReadMetrics. A
// scrape without a Date of its own takes that of the headers file of
// the same name beside it (metrics-a.txt and metrics-a.headers.txt), or
// of the only headers file when there is one scrape.
func (b *Builder) AddMetrics(name string, m *parser.MetricsExport) {
	b.metrics = append(b.metrics, metricsExport{name, m})
}

// metricsStem is a file's name without its folder's case, compression
// and format suffixes: what a scrape and its headers file share.
func metricsStem(name string) string {
	name = strings.ToLower(name)
	for _, suf := range []string{".gz", ".zst", ".txt", ".prom", ".metrics", ".headers"} {
		name = strings.TrimSuffix(name, suf)
	}
	return name
}

// buildMetrics pairs the scrapes with their headers, names the server
// of each scrape, and indexes the series; nil when no export was added.
func (b *Builder) buildMetrics() *Metrics {
	if len(b.metrics) == 0 {
		return nil
	}
	at := map[string]int64{}
	var headers []int64
	undated := 0
	for _, e := range b.metrics {
		switch {
		case e.m.Format == parser.MetricsHeaders && e.m.At != 0:
			at[metricsStem(e.name)] = e.m.At
			headers = append(headers, e.m.At)
		case e.m.Format == parser.MetricsText && e.m.At == 0:
			undated++
		}
	}
	m := &Metrics{ServerLabel: b.ServerLabel}
	set := seriesSet{m: m, index: map[string]int{}}
	var scrapes []int
	for k, e := range b.metrics {
		mf := MetricsFile{Name: e.name, Format: e.m.Format, Series: len(e.m.Series), Points: e.m.Points, Skipped: e.m.Skipped,
			At: e.m.At, Diagnostics: e.m.Diagnostics}
		if mf.Format == parser.MetricsText && mf.At == 0 {
			if t, ok := at[metricsStem(e.name)]; ok {
				mf.At = t
			} else if undated == 1 && len(headers) == 1 {
				mf.At = headers[0]
			}
			if mf.At != 0 {
				// Its headers file dates it: the parser's "no instant" no
				// longer holds.
				mf.Diagnostics = slices.DeleteFunc(slices.Clone(mf.Diagnostics), func(d parser.Diagnostic) bool { return d.Kind == parser.DiagNoDate })
			}
		}
		m.Files = append(m.Files, mf)
		if mf.Format == parser.MetricsText {
			scrapes = append(scrapes, k)
			continue
		}
		set.add(e.m.Series, mf.At, "")
	}
	m.pickServerLabel()
	// A raw scrape is one server's, and its series carry no label of the
	// target (Prometheus adds those as it scrapes). Each is matched with
	// the queries' series only, before any scrape joins them.
	for _, k := range scrapes {
		mf := &m.Files[k]
		mf.Server = m.serverOfScrape(b.metrics[k].m.Series, mf.At)
		if mf.Server == "" {
			mf.Server = metricsStem(path.Base(mf.Name))
		}
	}
	for _, k := range scrapes {
		set.add(b.metrics[k].m.Series, m.Files[k].At, m.Files[k].Server)
	}
	b.metrics = nil
	for k := range m.Series {
		s := &m.Series[k]
		if !slices.IsSorted(s.T) {
			sort.Stable(metricByTime{s})
		}
		for _, t := range s.T {
			if t == 0 {
				continue
			}
			if m.From == 0 || t < m.From {
				m.From = t
			}
			m.To = max(m.To, t)
		}
	}
	m.index()
	return m
}

// seriesSet merges the series of the files into Metrics.Series.
type seriesSet struct {
	m     *Metrics
	index map[string]int
	key   []byte
}

// add merges series whose points without an instant are at at; server,
// when not "", is set as the server label of those that have none.
func (set *seriesSet) add(series []parser.MetricSeries, at int64, server string) {
	m := set.m
	for _, s := range series {
		labels := s.Labels
		if server != "" && s.Label(m.ServerLabel) == "" {
			labels = append(append([]parser.MetricLabel(nil), labels...), parser.MetricLabel{Name: m.ServerLabel, Value: server})
			sort.Slice(labels, func(i, j int) bool { return labels[i].Name < labels[j].Name })
		}
		set.key = append(set.key[:0], s.Name...)
		for _, l := range labels {
			set.key = append(set.key, 0xff)
			set.key = append(set.key, l.Name...)
			set.key = append(set.key, 0xfe)
			set.key = append(set.key, l.Value...)
		}
		k, ok := set.index[string(set.key)]
		if !ok {
			k = len(m.Series)
			set.index[string(set.key)] = k
			m.Series = append(m.Series, MetricSeries{Name: s.Name, Labels: labels})
		}
		ms := &m.Series[k]
		n := len(ms.T)
		if n == 0 {
			// The export's points themselves, not a copy: the lab's are
			// 1.2 M. Clipped, a series another export adds to is copied
			// then.
			ms.T, ms.V = slices.Clip(s.T), slices.Clip(s.V)
		} else {
			ms.T, ms.V = append(ms.T, s.T...), append(ms.V, s.V...)
		}
		for i := n; i < len(ms.T); i++ {
			if ms.T[i] == 0 {
				ms.T[i] = at
			}
		}
	}
}

// pickServerLabel sets ServerLabel when the caller left it "": `server`
// when the API servers' series have it (a label the user gave each
// target), else Prometheus's `instance`.
func (m *Metrics) pickServerLabel() {
	if m.ServerLabel != "" {
		return
	}
	m.ServerLabel = "instance"
	for k := range m.Series {
		if s := &m.Series[k]; isServerMetric(s.Name) && s.Label("server") != "" {
			m.ServerLabel = "server"
			return
		}
	}
}

// serverOfScrape names the server a raw scrape at instant at is of: the
// one whose exported series agree with the most of its values then (a
// restarted server's counters differ from the others'); "" when no
// export says, or two servers agree as well.
func (m *Metrics) serverOfScrape(series []parser.MetricSeries, at int64) string {
	if at == 0 {
		return ""
	}
	names := map[string]bool{}
	values := map[string]float64{}
	var key []byte
	keyOf := func(name string, labels []parser.MetricLabel) string {
		key = append(key[:0], name...)
		for _, l := range labels {
			if names[l.Name] {
				key = append(key, 0xff)
				key = append(key, l.Name...)
				key = append(key, 0xfe)
				key = append(key, l.Value...)
			}
		}
		return string(key)
	}
	for _, s := range series {
		for _, l := range s.Labels {
			names[l.Name] = true
		}
	}
	for _, s := range series {
		values[keyOf(s.Name, s.Labels)] = s.V[0]
	}
	score := map[string]int{}
	for k := range m.Series {
		q := &m.Series[k]
		srv := q.Label(m.ServerLabel)
		if srv == "" {
			continue
		}
		v, ok := values[keyOf(q.Name, q.Labels)]
		if !ok {
			continue
		}
		i := sort.Search(len(q.T), func(i int) bool { return q.T[i] > at })
		if i > 0 && at-q.T[i-1] <= int64(2*time.Second) && q.V[i-1] == v {
			score[srv]++
		}
	}
	best, second := "", 0
	for srv, n := range score {
		if best == "" || n > score[best] || n == score[best] && srv < best {
			if best != "" {
				second = max(second, score[best])
			}
			best = srv
		} else {
			second = max(second, n)
		}
	}
	if best == "" || score[best] == second {
		return ""
	}
	return best
}

type metricByTime struct{ s *MetricSeries }

func (b metricByTime) Len() int           { return len(b.s.T) }
func (b metricByTime) Less(i, j int) bool { return b.s.T[i] < b.s.T[j] }
func (b metricByTime) Swap(i, j int) {
	b.s.T[i], b.s.T[j] = b.s.T[j], b.s.T[i]
	b.s.V[i], b.s.V[j] = b.s.V[j], b.s.V[i]
}

// Uses says whether the Metrics read a metric: the watch caches' state,
// the servers' restarts and requests, etcd's head and compaction.
func Uses(metric string) bool {
	return isServerMetric(metric) || metric == metricUp || metric == metricEtcdHead || metric == metricCompacted || metric == metricCacheLists || metric == metricConsistencyChecks
}

// isServerMetric says whether a series is an API server's own, which a
// server label names (etcd's are the cluster's).
func isServerMetric(name string) bool {
	switch name {
	case metricHeadRV, metricCapacity, metricReceived, metricInits, metricStart, metricRequests:
		return true
	}
	return false
}

// resourceName is a series' resource as groupResource.String() writes
// it: "configmaps", "deployments.apps". Up to 1.33 the resource label
// holds that whole; from 1.34 the group is a label of its own, empty
// (and so left out by Prometheus) for the core group.
func resourceName(s *MetricSeries) string {
	r, g := s.Label("resource"), s.Label("group")
	if g == "" || strings.Contains(r, ".") {
		return r
	}
	return r + "." + g
}

// index reads the series the accessors answer from.
func (m *Metrics) index() {
	head := map[serverResource][]*metricPoints{}
	capacity := map[serverResource][]*metricPoints{}
	recv := map[serverResource][]*metricPoints{}
	m.inits = map[serverResource][]*metricPoints{}
	m.starts = map[string][]float64{}
	m.reqs = map[requestKey][]*metricPoints{}
	// up is every target's scrapes, by the server label's value and job:
	// only those of a job whose series make the server one are its own
	// (a probe of it, or another exporter sharing the label's value, is
	// not).
	type serverJob struct{ server, job string }
	up := map[serverJob][]*metricPoints{}
	var etcd, compac []*metricPoints
	servers := map[string]bool{}
	jobs := map[serverJob]bool{}
	for k := range m.Series {
		s := &m.Series[k]
		switch s.Name {
		case metricEtcdHead:
			etcd = append(etcd, newMetricPoints(s))
			continue
		case metricCompacted:
			compac = append(compac, newMetricPoints(s))
			continue
		case metricUp:
			if srv := s.Label(m.ServerLabel); srv != "" {
				sj := serverJob{srv, s.Label("job")}
				up[sj] = append(up[sj], newMetricPoints(s))
			}
			continue
		}
		if !isServerMetric(s.Name) {
			continue
		}
		srv := s.Label(m.ServerLabel)
		if srv == "" {
			continue
		}
		servers[srv] = true
		if s.Name != metricStart {
			// Every Go exporter has a start time; the watch caches and
			// the requests are an API server's own.
			jobs[serverJob{srv, s.Label("job")}] = true
		}
		sr := serverResource{srv, resourceName(s)}
		switch s.Name {
		case metricHeadRV:
			head[sr] = append(head[sr], newMetricPoints(s))
		case metricCapacity:
			capacity[sr] = append(capacity[sr], newMetricPoints(s))
		case metricReceived:
			recv[sr] = append(recv[sr], newMetricPoints(s))
		case metricInits:
			m.inits[sr] = append(m.inits[sr], newMetricPoints(s))
		case metricStart:
			m.starts[srv] = append(m.starts[srv], s.V...)
		case metricRequests:
			rk := requestKey{srv, sr.resource, s.Label("verb")}
			m.reqs[rk] = append(m.reqs[rk], newMetricPoints(s))
		}
	}
	for srv := range servers {
		m.Servers = append(m.Servers, srv)
	}
	sort.Strings(m.Servers)
	merged := func(in map[serverResource][]*metricPoints) map[serverResource]*metricPoints {
		out := map[serverResource]*metricPoints{}
		for k, ps := range in {
			out[k] = mergePoints(ps)
		}
		return out
	}
	m.head, m.cap, m.recv = merged(head), merged(capacity), merged(recv)
	m.up = map[string]*metricPoints{}
	for sj, ps := range up {
		if jobs[sj] {
			m.up[sj.server] = mergePoints(ps)
		}
	}
	if len(etcd) > 0 {
		m.etcd = mergePoints(etcd)
		m.etcdHighest = make([]float64, len(m.etcd.v))
		top := math.Inf(-1)
		for i, v := range m.etcd.v {
			if !math.IsNaN(v) {
				top = max(top, v)
			}
			m.etcdHighest[i] = top
		}
	}
	if len(compac) > 0 {
		m.compac = mergePoints(compac)
	}
	m.serverResets = map[string][]counterReset{}
	for _, srv := range m.Servers {
		m.serverResets[srv] = m.resets(srv)
	}
}

// rvOf is a head RV as exported (RV modulo 1e15 from 1.36) made whole
// again with the captures' base.
func (m *Metrics) rvOf(v float64) (uint64, bool) {
	if v < 0 || math.IsNaN(v) || v >= 1<<63 {
		return 0, false
	}
	return m.rvBase + uint64(v), true
}

// rvModulus is what kube-apiserver 1.36+ reduces the exported RV by.
const rvModulus = 1_000_000_000_000_000

// setRVBase chooses the multiple of 1e15 the exported RVs are short of:
// the one that puts them nearest ref, an RV the captures show. Below
// 1e15 (nearly every cluster), or when a value is not reduced (before
// 1.36), it is 0.
func (m *Metrics) setRVBase(ref uint64) {
	if ref < rvModulus {
		return
	}
	var top float64
	for _, p := range m.head {
		for _, v := range p.v {
			top = max(top, v)
		}
	}
	if top >= rvModulus {
		return
	}
	base := ref / rvModulus * rvModulus
	if uint64(top)+base > ref+rvModulus/2 {
		base -= rvModulus
	}
	m.rvBase = base
}

// HeadRV is server's watch-cache RV for resource at t: its last sample
// at or before t that still holds ("configmaps", "deployments.apps").
func (m *Metrics) HeadRV(server, resource string, t int64) (uint64, bool) {
	p := m.head[serverResource{server, resource}]
	if p == nil {
		return 0, false
	}
	v, ok := p.at(t)
	if !ok {
		return 0, false
	}
	return m.rvOf(v)
}

// reached is between which instants (lo, hi] server's cache of resource
// reached RV rv, as its RV gauge shows, in the stretch that ends at at
// and starts after since (its process's start). A cache that had
// reached it at its first scrape after since reached it with its list:
// from since on. ok is false when the gauge shows no reach then.
func (m *Metrics) reached(server, resource string, rv uint64, since, at int64) (lo, hi int64, ok bool) {
	p := m.head[serverResource{server, resource}]
	if p == nil {
		return 0, 0, false
	}
	k := sort.Search(len(p.t), func(i int) bool { return p.t[i] > at }) - 1
	first := -1
	for ; k >= 0 && p.t[k] > since; k-- {
		v, ok := m.rvOf(p.v[k])
		if !ok {
			return 0, 0, false
		}
		if v < rv {
			break
		}
		first = k
	}
	switch {
	case first < 0:
		return 0, 0, false
	case k >= 0 && p.t[k] > since:
		return p.t[k], p.t[first], true
	case since == math.MinInt64:
		return 0, 0, false
	}
	return since, p.t[first], true
}

// Capacity is server's watch-cache capacity for resource at t, in
// events.
func (m *Metrics) Capacity(server, resource string, t int64) (int, bool) {
	p := m.cap[serverResource{server, resource}]
	if p == nil {
		return 0, false
	}
	v, ok := p.at(t)
	return int(v), ok
}

// EventsReceived is server's count of events its cache of resource
// received from etcd, as of t (it restarts from 0 with the process).
func (m *Metrics) EventsReceived(server, resource string, t int64) (float64, bool) {
	p := m.recv[serverResource{server, resource}]
	if p == nil {
		return 0, false
	}
	return p.at(t)
}

// Initializations are the instants server's cache of resource was
// (re)initialised while scraped: the first point after its counter rose,
// or after the server restarted (the new process's counter starts from 0
// and counts its first initialisation).
func (m *Metrics) Initializations(server, resource string) []int64 {
	resets := m.resets(server)
	var out []int64
	for _, p := range m.inits[serverResource{server, resource}] {
		for i := 1; i < len(p.t); i++ {
			if p.v[i] > p.v[i-1] || p.v[i] > 0 && resetBetween(resets, p.t[i-1], p.t[i]) {
				out = append(out, p.t[i])
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return dedupInt64(out)
}

// counterReset is a restart of a server seen in its counters: the new
// process started after Before (the old one's last point) and by After
// (the new one's first).
type counterReset struct{ Before, After int64 }

// resets are the restarts server's counters show: a counter lower than
// at its previous point, which only a new process's count from 0 makes.
// One restart resets many counters at once: those are one reset.
func (m *Metrics) resets(server string) []counterReset {
	var all []counterReset
	scan := func(ps []*metricPoints) {
		for _, p := range ps {
			for i := 1; i < len(p.t); i++ {
				if p.v[i] < p.v[i-1] {
					all = append(all, counterReset{p.t[i-1], p.t[i]})
				}
			}
		}
	}
	for sr, ps := range m.inits {
		if sr.server == server {
			scan(ps)
		}
	}
	for sr, p := range m.recv {
		if sr.server == server {
			scan([]*metricPoints{p})
		}
	}
	for rk, ps := range m.reqs {
		if rk.server == server {
			scan(ps)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].After < all[j].After })
	var out []counterReset
	for _, r := range all {
		// The same restart, seen in another counter: the windows meet.
		if n := len(out); n > 0 && r.Before < out[n-1].After {
			out[n-1].Before = max(out[n-1].Before, r.Before)
			out[n-1].After = min(out[n-1].After, r.After)
			continue
		}
		out = append(out, r)
	}
	return out
}

// resetBetween says whether a reset falls between two points at from
// and to: the old process's last point is from or after it, before to.
func resetBetween(resets []counterReset, from, to int64) bool {
	for _, r := range resets {
		if from <= r.Before && r.Before < to {
			return true
		}
	}
	return false
}

// Restarts are the instants a new process of server started after the
// first one scraped: at each reset of its counters, the process start
// time (process_start_time_seconds) that falls in it, else the new
// process's first point; and any later start time the series say.
func (m *Metrics) Restarts(server string) []int64 {
	var starts []int64
	for _, v := range m.starts[server] {
		// Unix seconds as a float64 keep about 0.2 µs at today's
		// instants: nanoseconds from them are noise (…58.650000128).
		starts = append(starts, int64(math.Round(v*1e6))*1e3)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	starts = dedupInt64(starts)
	var out []int64
	for _, r := range m.resets(server) {
		t := r.After
		for _, s := range starts {
			if s > r.Before && s <= r.After {
				t = s
			}
		}
		out = append(out, t)
	}
	for k, s := range starts {
		if k > 0 && !contains(out, s) {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func contains(ts []int64, t int64) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

func dedupInt64(ts []int64) []int64 {
	out := ts[:0]
	for i, t := range ts {
		if i == 0 || t != ts[i-1] {
			out = append(out, t)
		}
	}
	return out
}

// Requests is how many requests of verb ("LIST", "WATCH") for resource
// server finished between its scrapes at from and at to, over every code
// and scope: the counters' increase, as Prometheus's increase() takes
// it, across the server's restarts (a new process counts from 0). A
// WATCH counts when it ends (evidence.md §1.2). ok false when no series
// of them has a point then.
func (m *Metrics) Requests(server, resource, verb string, from, to int64) (float64, bool) {
	resets := m.resets(server)
	total, ok := 0.0, false
	for _, p := range m.reqs[requestKey{server, resource, verb}] {
		// The baseline: the last point at or before from, else the
		// series' first in the window.
		lo := sort.Search(len(p.t), func(i int) bool { return p.t[i] > from })
		hi := sort.Search(len(p.t), func(i int) bool { return p.t[i] > to })
		if lo > 0 {
			lo--
		}
		if hi-lo < 2 {
			continue
		}
		ok = true
		for i := lo + 1; i < hi; i++ {
			if p.v[i] < p.v[i-1] || resetBetween(resets, p.t[i-1], p.t[i]) {
				total += p.v[i]
			} else {
				total += p.v[i] - p.v[i-1]
			}
		}
	}
	return total, ok
}

// EtcdHead is etcd's current revision at t, where etcd was scraped.
func (m *Metrics) EtcdHead(t int64) (uint64, bool) {
	if m.etcd == nil {
		return 0, false
	}
	v, ok := m.etcd.at(t)
	return uint64(v), ok && v >= 0
}

// EtcdBelow is the last instant at which a scrape shows etcd's revision
// below rv (with every scrape before it), 0 when none does: rv did not
// exist yet then, so no client can have received it before. Several
// members' points interleave, a follower's behind: the highest revision
// shown so far is what rises.
func (m *Metrics) EtcdBelow(rv uint64) int64 {
	if m == nil || m.etcd == nil {
		return 0
	}
	k := sort.Search(len(m.etcdHighest), func(i int) bool { return m.etcdHighest[i] >= float64(rv) }) - 1
	if k < 0 {
		return 0
	}
	return m.etcd.t[k]
}

// CompactionEvery is how often etcd's exports show it compacting (each a
// rise of the revision it compacted to), to the second: the servers'
// --etcd-compaction-interval, which the etcd model takes as a parameter.
// A compaction shows at the scrape after it, and one with no write since
// the last shows none, so the gaps run long: the lower quartile of them
// is the interval. 0 when they show fewer than three.
func (m *Metrics) CompactionEvery() time.Duration {
	if m == nil || m.compac == nil {
		return 0
	}
	var rises []int64
	top := math.NaN()
	for i, v := range m.compac.v {
		switch {
		case math.IsNaN(v):
		case math.IsNaN(top):
			top = v
		case v > top:
			rises, top = append(rises, m.compac.t[i]), v
		}
	}
	if len(rises) < 3 {
		return 0
	}
	gaps := make([]int64, 0, len(rises)-1)
	for i := 1; i < len(rises); i++ {
		gaps = append(gaps, rises[i]-rises[i-1])
	}
	slices.Sort(gaps)
	return time.Duration(gaps[len(gaps)/4]).Round(time.Second)
}

// CompactRevision is the revision etcd had last compacted to at t, where
// etcd was scraped.
func (m *Metrics) CompactRevision(t int64) (uint64, bool) {
	if m.compac == nil {
		return 0, false
	}
	v, ok := m.compac.at(t)
	return uint64(v), ok && v >= 0
}

// lowestHead is the lowest of the servers' cache RVs for resource at t,
// over the servers whose sample then holds: a bookmark any of them sent
// then carried at least this.
func (m *Metrics) lowestHead(resource string, t int64) (uint64, bool) {
	var low uint64
	found := false
	for _, srv := range m.Servers {
		if rv, ok := m.HeadRV(srv, resource, t); ok && (!found || rv < low) {
			low, found = rv, true
		}
	}
	return low, found
}

// headRaises are the instants the exports show a higher RV than before,
// over every server, resource and etcd: what raises the timeline's head.
func (m *Metrics) headRaises() []requestedRV {
	var all []requestedRV
	for _, p := range m.head {
		// Only a series' own raises can raise the head.
		var top uint64
		for i, t := range p.t {
			if rv, ok := m.rvOf(p.v[i]); ok && (i == 0 || rv > top) {
				all = append(all, requestedRV{t, rv})
				top = rv
			}
		}
	}
	if m.etcd != nil {
		for i, t := range m.etcd.t {
			if v := m.etcd.v[i]; v >= 0 {
				all = append(all, requestedRV{t, uint64(v)})
			}
		}
	}
	// By instant, then RV: the series come from a map, and the raises
	// kept must not depend on its order.
	sort.Slice(all, func(i, j int) bool { return all[i].t < all[j].t || all[i].t == all[j].t && all[i].rv < all[j].rv })
	var out []requestedRV
	for _, r := range all {
		if n := len(out); n == 0 || r.rv > out[n-1].rv {
			out = append(out, r)
		}
	}
	return out
}

// resourceOfKind is the resource (as the metrics name it) the files of
// kind watch: from their requests' paths, else the kind's plural.
func (tl *Timeline) resourceOfKind(kind string) string {
	for _, f := range tl.Files {
		if f.Kind != kind {
			continue
		}
		for _, g := range f.Sessions {
			if q := tl.Sessions[g].Request; q != nil {
				if r := resourceOfPath(q.Path); r != "" {
					return r
				}
			}
		}
	}
	for r, k := range kindOfResource {
		if k == kind {
			return r
		}
	}
	return strings.ToLower(kind) + "s"
}

// resourceOfPath reads a request path's resource as groupResource
// writes it: /api/v1/namespaces/lab/configmaps -> configmaps,
// /apis/apps/v1/watch/deployments -> deployments.apps.
func resourceOfPath(p string) string {
	seg := strings.Split(strings.Trim(path.Clean(p), "/"), "/")
	var group string
	switch {
	case len(seg) >= 3 && seg[0] == "api":
		seg = seg[2:]
	case len(seg) >= 4 && seg[0] == "apis":
		group, seg = seg[1], seg[3:]
	default:
		return ""
	}
	if seg[0] == "watch" {
		seg = seg[1:]
	}
	if len(seg) >= 3 && seg[0] == "namespaces" {
		seg = seg[2:]
	}
	if len(seg) == 0 || seg[0] == "" {
		return ""
	}
	if group != "" {
		return seg[0] + "." + group
	}
	return seg[0]
}

// raiseHead merges the exports' head raises into requested (the RVs
// that raise the timeline's head, in time order), once the captures'
// RVs have said which 1e15 the exported RVs are in.
func (m *Metrics) raiseHead(tl *Timeline, requested []requestedRV) []requestedRV {
	ref := uint64(0)
	for i := 0; i < tl.tab.len(); i++ {
		if tl.tab.flags.at(i)&flagRVValid != 0 {
			ref = max(ref, tl.tab.rv.at(i))
		}
	}
	for _, r := range requested {
		ref = max(ref, r.rv)
	}
	m.setRVBase(ref)
	out := append(append([]requestedRV(nil), requested...), m.headRaises()...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].t < out[j].t })
	return out
}

// span is the first and last instant of server's watch-cache series.
func (m *Metrics) span(server string) (from, to int64) {
	for sr, p := range m.head {
		if sr.server != server || len(p.t) == 0 {
			continue
		}
		if from == 0 || p.t[0] < from {
			from = p.t[0]
		}
		to = max(to, p.t[len(p.t)-1])
	}
	return from, to
}

// scrapesBoundClosing bounds when the server's process, from from to
// to, stopped taking new requests, where its scrapes all failed (up 0)
// from one instant up to its end, with a point after it: after the point
// before the last that answered (a query_range point holds the last
// scrape at or before it, so the scrape it shows may be a step earlier),
// by the first that failed. 0, 0 when there is none (failedRun), or
// when no point comes after to (failures under load with nothing after
// them show no end: the process may have answered the next).
func (m *Metrics) scrapesBoundClosing(server string, from, to int64) (after, by int64) {
	p := m.up[server]
	if p == nil {
		return 0, 0
	}
	end := sort.Search(len(p.t), func(i int) bool { return p.t[i] > to })
	if end == len(p.t) {
		return 0, 0
	}
	k, ok := p.failedRun(end)
	if !ok || p.t[k-1] < from {
		return 0, 0
	}
	after = p.t[k-1]
	if k >= 2 && p.t[k-2] >= from {
		after = p.t[k-2]
	}
	return after, p.t[k]
}

// lastAnsweredBeforeFailures is the server's last scrape that answered
// (up 1) before a run of failed ones (failedRun) that ends just
// before a restart at t, past the new process's first scrapes (at most
// newScrapes: a start read from the counters' reset comes a scrape or
// two after the process answered); 0 when its scrapes did not fail so.
func (m *Metrics) lastAnsweredBeforeFailures(server string, t int64) int64 {
	const newScrapes = 3
	p := m.up[server]
	if p == nil {
		return 0
	}
	end := sort.Search(len(p.t), func(i int) bool { return p.t[i] >= t })
	for n := 0; n < newScrapes && end > 0 && p.v[end-1] != 0; n++ {
		end--
	}
	if k, ok := p.failedRun(end); ok {
		return p.t[k-1]
	}
	return 0
}

// failedRun is where the run of failed scrapes (up 0) that ends before
// point end begins, k; ok when at least two failed and one answered
// before them (k-1): a single failed scrape is a slow answer as often as
// a closed door.
func (p *metricPoints) failedRun(end int) (k int, ok bool) {
	k = end
	for k > 0 && p.v[k-1] == 0 {
		k--
	}
	return k, end-k >= 2 && k > 0
}

// scrapeFailed says whether the server's last scrape at or before t,
// while it holds, failed (up 0): it answered no request then.
func (m *Metrics) scrapeFailed(server string, t int64) bool {
	p := m.up[server]
	if p == nil {
		return false
	}
	v, ok := p.at(t)
	return ok && v == 0
}

// upChanges are the instants at which scrapeFailed's answer may change:
// each point's, and where one grows too old to hold.
func (m *Metrics) upChanges(server string) []int64 {
	p := m.up[server]
	if p == nil {
		return nil
	}
	var ts []int64
	for i, t := range p.t {
		if i == 0 || (p.v[i] == 0) != (p.v[i-1] == 0) {
			ts = append(ts, t)
		}
		if i+1 == len(p.t) || p.t[i+1]-t > p.lookback {
			ts = append(ts, t+p.lookback+1)
		}
	}
	return ts
}

// lastBefore is the last instant before t of server's watch-cache
// series: its process's last point before a restart at t.
func (m *Metrics) lastBefore(server string, t int64) int64 {
	var last int64
	for sr, p := range m.head {
		if sr.server != server {
			continue
		}
		if k := sort.Search(len(p.t), func(i int) bool { return p.t[i] >= t }); k > 0 {
			last = max(last, p.t[k-1])
		}
	}
	return last
}

// startIn is when the process that reset r shows started: its
// process_start_time_seconds, else the last point of the process before.
func (m *Metrics) startIn(server string, r counterReset) int64 {
	start := r.Before
	for _, v := range m.starts[server] {
		if s := int64(math.Round(v * 1e9)); s > start && s <= r.After {
			start = s
		}
	}
	return start
}
