package cli

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"watchlens/internal/quantity"
	"watchlens/parser"
	"watchlens/report"
	"watchlens/timeline"
)

// restartFlags collects repeated --restart values: an instant, a window
// FROM/TO (SIGTERM to the new process serving), or "detected".
type restartFlags struct {
	windows  []timeline.Restart
	detected bool
}

func (r *restartFlags) String() string { return fmt.Sprint(len(r.windows)) }

func (r *restartFlags) Set(s string) error {
	if s == "detected" {
		r.detected = true
		return nil
	}
	w, err := timeline.ParseRestart(s)
	if err != nil {
		return fmt.Errorf("%v, or \"detected\"", err)
	}
	r.windows = append(r.windows, w)
	return nil
}

// resumeFlags collects repeated --resume-at values: an RFC 3339 instant,
// +DURATION after each file's own end, or an instant as the report
// writes it or a user types it ("2026-12-01 18:16:27.992 UTC", "18:16"),
// read once the captures are (see instants).
type resumeFlags struct {
	queries []timeline.ResumeQuery
	typed   []string
}

func (r *resumeFlags) String() string { return fmt.Sprint(len(r.queries) + len(r.typed)) }

func (r *resumeFlags) Set(s string) error {
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		d, err := time.ParseDuration(rest)
		if err != nil || d < 0 {
			return fmt.Errorf("want +DURATION after each file's end, e.g. +8m")
		}
		r.queries = append(r.queries, timeline.ResumeQuery{After: d, Relative: true})
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		// A time of day at least: checked against the captures' span
		// once they are read.
		if !strings.Contains(s, ":") {
			return fmt.Errorf("want an instant (RFC 3339, \"2026-12-01 18:16:27.992 UTC\" as the report writes it, or a time of day such as 18:16 in --time-zone) or +DURATION after each file's end (e.g. +8m)")
		}
		r.typed = append(r.typed, s)
		return nil
	}
	at, ok := parser.UnixNano(t)
	if !ok {
		return fmt.Errorf("%s is %s", s, parser.TimeRange)
	}
	r.queries = append(r.queries, timeline.ResumeQuery{At: at})
	return nil
}

// instants are the queries, each typed instant read in zone over tl's
// span (a time of day asks each day the captures span that holds it),
// or an error naming one that gives none.
func (r *resumeFlags) instants(tl *timeline.Timeline, zone *time.Location) ([]timeline.ResumeQuery, error) {
	out := slices.Clone(r.queries)
	for _, s := range r.typed {
		ats := tl.Instants(s, zone)
		if len(ats) == 0 {
			return nil, fmt.Errorf("--resume-at %q: no instant the captures span (give RFC 3339, \"2026-12-01 18:16:27.992 UTC\" as the report writes it, or a time of day such as 18:16 in --time-zone)", s)
		}
		for _, at := range ats {
			out = append(out, timeline.ResumeQuery{At: at})
		}
	}
	return out, nil
}

// serverOfFlags collects repeated --server-of values: FILE=NAME, the
// API server whose audit log FILE is.
type serverOfFlags map[string]string

func (s serverOfFlags) String() string { return fmt.Sprint(len(s)) }

func (s serverOfFlags) Set(v string) error {
	file, name, ok := strings.Cut(v, "=")
	if !ok || file == "" || name == "" {
		return fmt.Errorf("want FILE=NAME, the API server whose audit log FILE is, e.g. hostA/audit.log=a")
	}
	s[file] = name
	return nil
}

// runAnalyze is `watchlens analyze [flags] FILE...`: it reads the captures
// (gzip and zstd are unwrapped by the parser) onto one clock and prints
// the timeline's report. Exit codes: 0 ok, 1 --fail-on matched or a file
// could not be read, 2 bad usage, 3 under --fail-on an input gave nothing
// to judge (timeline.Timeline.Unjudged) or only metrics were given.
func runAnalyze(args []string, stdout, stderr io.Writer) int {
	def := timeline.DefaultParams()
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text, json, markdown (or md), summary (the verdict and key figures in Markdown, short enough to paste into a postmortem: the page's Copy summary), or perfetto (a trace for Perfetto UI and chrome://tracing)")
	failOn := fs.String("fail-on", "", "exit 1 when the condition holds, 0 only when every file gave something to judge and it does not; \"410\": a 410 Gone in the record (matched to a reconnect or not), or a reconnect the models refuse; \"risk\": that, or a reconnect at risk of one. Exit 3 when a file gave nothing to judge (no event, only non-watch requests, a server that answered only with an error such as 403, not a capture), with the reason on stderr")
	window := fs.Duration("cache-window", def.CacheWindow, "watch cache history (eventFreshDuration: 75s; 1.33+: max(75s, --request-timeout+15s))")
	count := fs.Int("cache-count", def.CacheCount, "watch cache capacity in events of the resource type (0 disables; dynamic 100..102400 from 1.19, 100 before)")
	etcd := fs.Duration("etcd-interval", def.EtcdInterval, "--etcd-compaction-interval of the server (0 disables the etcd model)")
	delay := fs.Duration("delay", def.Delay, "reconnect delay after a drop (client-go re-watches at once after a clean close)")
	cache := fs.Bool("watch-cache", def.WatchCache, "the server ran with its watch cache (false: every watch reads etcd)")
	servers := fs.Int("servers", def.Servers, "API servers behind the clients' load balancer (1: a restart refuses every older cursor; more: a restarted server's clients move to another)")
	splitBy := fs.String("split-by", "", "split each capture into virtual clients, one per share, as narrow watches of it would have been: nodeName, namespace, label=KEY or field=PATH")
	logDate := fs.String("log-date", "", "the date of log lines that write less than theirs: a year (2026) for client-go's klog lines, which name month and day only, or a date (2026-12-01), which serves them and lines that give a time of day only, as logback's default pattern writes them, too (empty: a line of the log that names it, else the other files', else the clock's)")
	logYear := fs.Int("log-year", 0, "the same as --log-date YEAR")
	maxEventSize := byteSize(parser.DefaultMaxEventSize)
	fs.Var(&maxEventSize, "max-event-size", "the largest event kept whole (64MiB by default; a number of bytes, or with KiB, MiB or GiB): a larger one is skipped, and stderr says so; a larger LIST response is read item by item")
	maxEvents := fs.Int("max-events", timeline.DefaultMaxEvents, "stop reading after this many events over all files: an event keeps tens of bytes; a request of an audit log counts as one event, and each of its clients as 1000")
	maxObjects := fs.Int("max-objects", timeline.DefaultMaxObjects, fmt.Sprintf("stop reading at the event of one more distinct object than this over all files: each keeps about %d bytes beside its events", timeline.ObjectBytes))
	serverLabel := fs.String("server-label", "", "the label that names an API server in Prometheus exports (default: server when the series have it, else instance)")
	timeZone := fs.String("time-zone", "UTC", "the zone the text and Markdown reports write times in: UTC, local (this machine's), or an IANA name such as Europe/Paris; the JSON report stays UTC")
	var restarts restartFlags
	fs.Var(&restarts, "restart", "an API server restart: FROM/TO (SIGTERM to the new process serving, RFC 3339), an instant, or \"detected\" to apply the restarts the captures suggest (repeatable)")
	var resumeAt resumeFlags
	serverOf := serverOfFlags{}
	fs.Var(serverOf, "server-of", "FILE=NAME: the audit log FILE is API server NAME's, where the file names cannot tell (logs given one NAME are one server's; repeatable)")
	fs.Var(&resumeAt, "resume-at", "answer what a reconnect at this instant would get, per file and cursor: RFC 3339, an instant as the report writes it (2026-12-01 18:16:27.992 UTC), a time of day (18:16, in --time-zone; each day the captures span that holds it), or +DURATION after each file's own end (repeatable)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: watchlens analyze [flags] FILE...\n\nAnalyse watch captures (several files share one clock; - is standard\ninput; a folder stands for the records under it) and report where a\nreconnecting client would have got 410 Gone.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return flagErrorCode(err)
	}
	bad := func(msg string) int {
		fmt.Fprintf(stderr, "watchlens analyze: %s\n", msg)
		fs.Usage()
		return 2
	}
	switch *format {
	case "md":
		*format = "markdown"
	case "text", "json", "markdown", "summary", "perfetto":
	default:
		return bad(fmt.Sprintf("unknown --format %q", *format))
	}
	zone, err := timeline.ParseZone(*timeZone)
	if err != nil {
		return bad("--time-zone: " + err.Error())
	}
	// A typed --resume-at is read in the zone given, whichever the
	// report writes in.
	askZone := zone
	if *format == "json" {
		// A contract (report/REPORT.md): its times are UTC.
		zone = time.UTC
	}
	if *failOn != "" && *failOn != "410" && *failOn != "risk" {
		return bad(fmt.Sprintf("unknown --fail-on %q (supported: 410, risk)", *failOn))
	}
	if *window < 0 || *count < 0 || *etcd < 0 || *delay < 0 || *servers < 1 {
		return bad("model parameters must not be negative")
	}
	var logDay timeline.LogDate
	if *logDate != "" {
		if logDay, err = timeline.ParseLogDate(*logDate); err != nil {
			return bad("--log-date " + err.Error())
		}
	}
	switch {
	case *logYear < 0:
		return bad("--log-year must not be negative")
	case *logYear > 0 && *logDate != "" && logDay.Year != *logYear:
		return bad(fmt.Sprintf("--log-year %d and --log-date %s name different years", *logYear, *logDate))
	case *logYear > 0:
		logDay.Year = *logYear
	}
	if *maxEvents <= 0 {
		return bad("--max-events must be positive")
	}
	if *maxObjects <= 0 {
		return bad("--max-objects must be positive")
	}
	if fs.NArg() == 0 {
		return bad("no capture file given")
	}
	var split *timeline.Split
	if *splitBy != "" {
		sp, err := timeline.ParseSplit(*splitBy)
		if err != nil {
			return bad("--split-by " + err.Error())
		}
		split = &sp
	}
	b := timeline.NewBuilder()
	b.MaxEvents = *maxEvents
	b.MaxObjects = *maxObjects
	b.ServerOf = serverOf
	b.ServerLabel = *serverLabel
	b.LogDate = logDay
	opts := parser.Options{MaxEventSize: int(maxEventSize)}
	in, walkErrs := inputs(fs.Args())
	if streamsLarge(in) {
		defer paceGC()()
	}
	for _, err := range walkErrs {
		fmt.Fprintf(stderr, "watchlens analyze: %v\n", err)
	}
	failed := len(walkErrs) > 0
	var leftOut []string
	for _, in := range in {
		name := in.name
		f, err := openInput(name)
		if err != nil {
			fmt.Fprintf(stderr, "watchlens analyze: %v\n", err)
			failed = true
			continue
		}
		file := b.FilesAdded()
		if name == "-" {
			// The reports name it in sentences: "the server refused
			// stdin's reconnect", not "-'s".
			name = stdinName
		}
		if split != nil {
			err = b.AddReaderSplit(name, f, opts, *split)
		} else {
			err = b.AddReader(name, f, opts)
		}
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "watchlens analyze: %s: %v (the part read before the error is analysed)\n", name, err)
			failed = true
		} else if in.found && b.LeaveOutUnread(file) {
			leftOut = append(leftOut, name)
		}
	}
	warnLeftOut(leftOut, stderr)
	if b.StoppedObjects() {
		fmt.Fprintf(stderr, "watchlens analyze: stopped reading at %d distinct objects (--max-objects raises the limit); the report is of the events read before\n", *maxObjects)
	} else if b.Stopped() {
		fmt.Fprintf(stderr, "watchlens analyze: stopped reading at %d events (--max-events raises the limit); the report is of the events read before\n", *maxEvents)
	}
	p := timeline.Params{CacheWindow: *window, CacheCount: *count, EtcdInterval: *etcd, Delay: *delay,
		WatchCache: *cache, Restarts: restarts.windows, Servers: *servers, MinGap: def.MinGap, Zone: zone}
	tl := b.Build()
	a := tl.Analyze(p)
	if n := a.ServerCount(); n > *servers && flagSet(fs, "servers") {
		fmt.Fprintf(stderr, "watchlens analyze: --servers %d is fewer than the %d API servers the records show; the report counts %d\n", *servers, n, n)
	}
	if restarts.detected {
		// The detection does not depend on the parameters: apply what it
		// found and analyse again.
		for _, d := range a.Restarts {
			p.Restarts = append(p.Restarts, d.Window())
		}
		slices.SortFunc(p.Restarts, func(x, y timeline.Restart) int { return cmp.Compare(x.From, y.From) })
		a = tl.Analyze(p)
	}
	queries, err := resumeAt.instants(tl, askZone)
	if err != nil {
		fmt.Fprintf(stderr, "watchlens analyze: %v\n", err)
		return 2
	}
	rep := report.New(a, queries)
	switch strings.ToLower(*format) {
	case "json":
		err = rep.WriteJSON(stdout)
	case "markdown":
		err = rep.WriteMarkdown(stdout)
	case "summary":
		_, err = io.WriteString(stdout, rep.PasteMarkdown(""))
	case "perfetto":
		err = report.WritePerfetto(stdout, a)
	default:
		err = rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "watchlens analyze: %v\n", err)
		return 1
	}
	warnTooBig(tl, int64(maxEventSize), stderr)
	unjudged := warnUnjudged(tl, stderr)
	// Every 410 the record shows fails the gate, as the summary names
	// each one: the headline and the exit code never disagree.
	var why string
	switch *failOn {
	case "410":
		why = rep.Refused()
	case "risk":
		why = rep.AtRisk()
	}
	if n := len(tl.Gones()); why == "" && *failOn != "" && n > 0 {
		why = "the record shows " + quantity.Plural(n, "410 Gone error")
	}
	if why != "" {
		fmt.Fprintf(stderr, "watchlens analyze: --fail-on %s: %s\n", *failOn, why)
	}
	if failed || why != "" {
		return 1
	}
	if (*failOn != "" && unjudged) || !tl.Judged() {
		return exitUnread
	}
	return 0
}
