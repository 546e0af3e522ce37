package timeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"watchlens/parser"
)

func TestParseSplit(t *testing.T) {
	for in, want := range map[string]Split{
		"nodeName": {SplitField, "spec.nodeName"}, "namespace": {SplitNamespace, ""},
		"label=shard": {SplitLabel, "shard"}, "field=spec.schedulerName": {SplitField, "spec.schedulerName"},
	} {
		if got, err := ParseSplit(in); err != nil || got != want {
			t.Errorf("%q: %+v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "label=", "labels=x", "node"} {
		if _, err := ParseSplit(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The broad capture of the fleet split by the shard label: a virtual
// client per shard, whose verdicts at each recorded client's resumes
// (the recorded client of that shard, with its bookmarks or without)
// never contradict what the server answered it, and decide most of them.
func TestSplitByShardMatchesTheRecordedClients(t *testing.T) {
	split, _ := ParseSplit("label=shard")
	b := NewBuilder()
	f, err := os.Open(filepath.Join(fleetDir, "broad-a.ts.http"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AddReaderSplit("broad-a", f, parser.Options{}, split); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tl := b.Build()
	if len(tl.Files) != 21 {
		t.Fatalf("%d files, want broad-a and 20 shards", len(tl.Files))
	}
	virtual := map[string]int{}
	for fi, vf := range tl.Files[1:] {
		virtual[vf.Name] = fi + 1
		if vf.Filtered != "filtered" || vf.Broad {
			t.Errorf("%s: scope %s, broad %v", vf.Name, vf.Filtered, vf.Broad)
		}
		if !strings.HasPrefix(vf.SplitKey, "shard=s") || vf.SplitOf != tl.Files[0].Name {
			t.Errorf("%s: split key %q of %q", vf.Name, vf.SplitKey, vf.SplitOf)
		}
	}
	p := fleetParams(t)
	a := tl.Analyze(p)
	judged, decided, refused := 0, 0, 0
	for n := 0; n < 40; n++ {
		mode := "bookmarks"
		kind := BookmarkAware
		if n >= 20 {
			mode, kind = "nobookmarks", BookmarkIgnoring
		}
		name := fmt.Sprintf("c%02d-%s.ts.http", n, mode)
		rec := buildFleetFiles(t, name)
		vfi, ok := virtual[fmt.Sprintf("broad-a [shard=s%02d]", n%20)]
		if !ok {
			t.Fatalf("no virtual client for %s", name)
		}
		for _, g := range rec.Files[0].Sessions {
			s := &rec.Sessions[g]
			if s.Request == nil || !s.Request.Watch || s.Request.ResourceVersion == "" || s.Request.ResourceVersion == "0" {
				continue
			}
			observed := Accepted
			if gone(s.Error) {
				observed, refused = Refused, refused+1
			}
			v := a.Verdict(vfi, kind, s.Start, 0)
			judged++
			if v.Outcome == Accepted || v.Outcome == Refused {
				decided++
				if v.Outcome != observed {
					t.Errorf("%s resume from %s at %s: the virtual client of its shard says %v, the server %v (%s)",
						name, s.Request.ResourceVersion, FormatTime(s.Start, ClockArrival), v.Outcome, observed, v.Reason)
				}
			}
		}
	}
	t.Logf("%d resumes judged (%d refused by the server), %d decided by the virtual clients", judged, refused, decided)
	if judged < 60 || refused < 10 || decided < judged/2 {
		t.Errorf("judged %d, refused %d, decided %d: the test must exercise both outcomes and decide most", judged, refused, decided)
	}
}

// TestSplitReportsAndCancels: making the virtual clients, after the
// capture is read, says how many are made of how many, and stops when
// Cancel says so, as reading does.
func TestSplitReportsAndCancels(t *testing.T) {
	split, _ := ParseSplit("label=shard")
	read := func(cancelAt int) ([]ReadProgress, int, error) {
		b := NewBuilder()
		var reports []ReadProgress
		b.Progress = func(p ReadProgress) {
			if p.OfClients > 0 {
				reports = append(reports, p)
			}
		}
		b.Cancel = func() bool { return cancelAt >= 0 && len(reports) > cancelAt }
		f, err := os.Open(filepath.Join(fleetDir, "broad-a.ts.http"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		err = b.AddReaderSplit("broad-a", f, parser.Options{}, split)
		return reports, b.FilesAdded(), err
	}
	reports, files, err := read(-1)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 20 || files != 21 {
		t.Fatalf("%d reports of the split and %d files, want 20 and 21", len(reports), files)
	}
	for i, p := range reports {
		if p.Clients != i || p.OfClients != 20 || p.File != "broad-a" {
			t.Errorf("report %d: %+v, want %d of 20 clients made of broad-a", i, p, i)
		}
	}
	_, files, err = read(5)
	if !errors.Is(err, ErrCancelled) || files != 1+5+1 {
		t.Errorf("cancelled after 6 reports: %v, %d files (want ErrCancelled, the capture and 6 clients)", err, files)
	}
}
