// Package warmup holds the incident the engine's spare worker opens in
// its warm-up (app/engine/worker/warmup.go), embedded so that the native
// binary serves it with the site: a small part of samples-lab, the
// recording of three API servers restarted in turn under a fleet of
// informers (README.md says which part and how it was taken). The
// built-in samples are each one client of one server; a several-server
// incident (captures that moved between servers, the servers' audit
// logs, the informers' klog, Prometheus exports) runs the code that
// only such a load runs: the evidence of several servers, the fleet's
// analysis and its frame.
package warmup

import "embed"

// FS holds the incident's files, at the top of it.
//
//go:embed *.ts.http *.log *.json.gz
var FS embed.FS
