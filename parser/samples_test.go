package parser

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// sampleDirs are the real captures: the repo's own, then the recordings
// shared beside the checkout (skipped, by name, without them).
func sampleDirs(t *testing.T) []string {
	dirs := []string{testsample.Path(t, testsample.SamplesDir)}
	for _, name := range []string{"samples-real", "samples-public"} {
		if dir, ok := testsample.RecordingIfPresent(t, name); ok {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

func readSample(t *testing.T, path string) *Capture {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ReadAll(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSamplesMatchManifest reads every real capture without a diagnostic,
// with the events per type its folder's MANIFEST.tsv lists; a folder
// without a manifest (samples-public) is only read.
func TestSamplesMatchManifest(t *testing.T) {
	for _, dir := range sampleDirs(t) {
		var man map[string]map[string]int
		if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err == nil {
			man = testsample.Manifest(t, dir)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		seen := 0
		for _, path := range files {
			name := filepath.Base(path)
			if name == "MANIFEST.tsv" || strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".go") {
				continue
			}
			seen++
			t.Run(filepath.Base(dir)+"/"+name, func(t *testing.T) {
				c := readSample(t, path)
				for _, d := range c.Diagnostics {
					t.Errorf("diagnostic: %v", d)
				}
				if man == nil {
					if len(c.Events) == 0 {
						t.Error("no event read")
					}
					return
				}
				want, ok := man[name]
				if !ok {
					t.Fatalf("%s is not in %s/MANIFEST.tsv", name, dir)
				}
				got := map[string]int{}
				for _, ev := range c.Events {
					got[ev.Type.String()]++
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("counts %v, want %v", got, want)
				}
			})
		}
		if man != nil && seen != len(man) {
			t.Errorf("%s: %d files, its manifest lists %d", dir, seen, len(man))
		}
	}
}

// decompressed returns a sample's bytes as the Reader's offsets count them.
func decompressed(t *testing.T, path string) []byte {
	t.Helper()
	plain := testsample.Plain(t, path)
	if b := testsample.Read(t, path); !bytes.Equal(b, plain) {
		decoded, err := io.ReadAll(Decoded(bytes.NewReader(b)))
		if err != nil || !bytes.Equal(decoded, plain) {
			t.Fatalf("Decoded differs from gunzip: %v", err)
		}
	}
	return plain
}

func sampleFiles(t *testing.T) []string {
	var out []string
	for _, dir := range sampleDirs(t) {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			name := filepath.Base(f)
			if name != "MANIFEST.tsv" && !strings.HasSuffix(name, ".md") && !strings.HasSuffix(name, ".go") {
				out = append(out, f)
			}
		}
	}
	return out
}

func TestEventJSONOnEverySampleEvent(t *testing.T) {
	for _, path := range sampleFiles(t) {
		data := decompressed(t, path)
		rd := NewReader(bytes.NewReader(data), Options{})
		n := 0
		for rd.Next() {
			ev := rd.Event()
			span := data[ev.Offset : ev.Offset+ev.Length]
			got, err := EventJSON(span)
			if err != nil {
				t.Fatalf("%s event %d: %v", path, ev.Seq, err)
			}
			if !bytes.Equal(got, rd.Raw()) {
				t.Fatalf("%s event %d: EventJSON gives\n%s\nwant\n%s", path, ev.Seq, got, rd.Raw())
			}
			// Whichever way the Reader took, the fields are gjson's.
			var ref fields
			extractGJSON(got, &ref)
			if ref.typ != ev.Type.String() || ref.kind != ev.Kind || ref.apiVersion != ev.APIVersion ||
				ref.namespace != ev.Namespace || ref.name != ev.Name || ref.uid != ev.UID || ref.rv != ev.RV ||
				ref.estimated != ev.Estimated || ref.initialEventsEnd != ev.InitialEventsEnd {
				t.Fatalf("%s event %d: %+v, gjson says %+v", path, ev.Seq, ev, ref)
			}
			n++
		}
		if n == 0 && !strings.Contains(path, "l410") {
			t.Errorf("%s: no events", path)
		}
	}
}

// TestTimedSamplesMatchUntimed holds the .ts.http captures to the same
// events as their untimed twins, with arrival times added.
func TestTimedSamplesMatchUntimed(t *testing.T) {
	files, _ := filepath.Glob("../samples/*.ts.http")
	if len(files) == 0 {
		t.Fatal("no .ts.http samples")
	}
	for _, ts := range files {
		timed := readSample(t, ts)
		plain := readSample(t, strings.Replace(ts, ".ts.http", ".http", 1))
		if len(timed.Events) != len(plain.Events) || len(timed.Sessions) != len(plain.Sessions) {
			t.Fatalf("%s: %d events in %d sessions, untimed %d in %d", ts,
				len(timed.Events), len(timed.Sessions), len(plain.Events), len(plain.Sessions))
		}
		for i, e := range timed.Events {
			p := plain.Events[i]
			if e.Arrival == 0 {
				t.Fatalf("%s event %d has no arrival time", ts, i)
			}
			if i > 0 && e.Arrival < timed.Events[i-1].Arrival {
				t.Errorf("%s event %d arrives before the one before it", ts, i)
			}
			e.Arrival, e.Offset, e.Length, e.Identity = 0, p.Offset, p.Length, p.Identity
			if !reflect.DeepEqual(e, p) {
				t.Errorf("%s event %d:\n%+v\nuntimed:\n%+v", ts, i, e, p)
			}
		}
		for i, s := range timed.Sessions {
			p := plain.Sessions[i]
			if s.StartArrival == 0 || s.EndArrival < s.StartArrival {
				t.Errorf("%s session %d arrivals %d..%d", ts, i, s.StartArrival, s.EndArrival)
			}
			if !reflect.DeepEqual(s.Request, p.Request) || s.HTTPStatus != p.HTTPStatus || s.Events != p.Events ||
				!reflect.DeepEqual(s.Headers, p.Headers) || !reflect.DeepEqual(s.Status, p.Status) {
				t.Errorf("%s session %d differs from its untimed twin", ts, i)
			}
		}
	}
}

func TestResumeSessions(t *testing.T) {
	for _, name := range []string{"w3-then-resume.http", "w4-then-resume.http", "w3-then-resume.ts.http", "w4-then-resume.ts.http"} {
		c := readSample(t, "../samples/"+name)
		if len(c.Sessions) != 2 {
			t.Fatalf("%s: %d sessions, want 2", name, len(c.Sessions))
		}
		for i, s := range c.Sessions {
			if s.Request == nil || !s.Request.Watch || s.Request.LabelSelector != "app=quiet" || s.HTTPStatus != 200 {
				t.Errorf("%s session %d: request %+v status %d", name, i, s.Request, s.HTTPStatus)
			}
			if s.Truncated {
				t.Errorf("%s session %d is marked truncated", name, i)
			}
		}
		if strings.HasPrefix(name, "w4") {
			if rv := c.Sessions[1].Request.ResourceVersion; rv != "389" {
				t.Errorf("%s: resume from %q, want 389", name, rv)
			}
			last := c.Events[len(c.Events)-1]
			if last.Session != 1 || last.Type != Error || last.Status == nil || !last.Status.TooOld ||
				last.Status.X != 389 || last.Status.Y != 1411 || last.Status.Code != 410 || last.Status.Reason != "Expired" {
				t.Errorf("%s: last event %+v status %+v", name, last, last.Status)
			}
		}
		if c.Sessions[0].End > c.Sessions[1].Offset {
			t.Errorf("%s: sessions overlap", name)
		}
	}
	c := readSample(t, "../samples/l410-list-exact-stale-rv.http")
	if len(c.Sessions) != 1 || c.Sessions[0].HTTPStatus != 410 || c.Sessions[0].Status == nil ||
		c.Sessions[0].Status.Code != 410 || c.Sessions[0].StatusText != "Gone" || len(c.Events) != 0 {
		t.Errorf("l410: %+v", c.Sessions)
	}
}

// TestIdentityNumbersObjects holds Event.Identity to its promise on every
// real sample: one number for each uid, name and namespace, the same for
// all their events (no two of their objects run together into the same
// bytes); and most events numbered.
func TestIdentityNumbersObjects(t *testing.T) {
	type object struct{ uid, name, namespace string }
	for _, path := range sampleFiles(t) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rd := NewReader(f, Options{})
		objectOf := map[uint32]object{}
		numberOf := map[object]uint32{}
		numbered, withObject := 0, 0
		for rd.Next() {
			ev := rd.Event()
			o := object{ev.UID, ev.Name, ev.Namespace}
			if o != (object{}) {
				withObject++
			}
			if ev.Identity == 0 {
				continue
			}
			numbered++
			if o == (object{}) {
				t.Errorf("%s event %d: numbered %d without a uid, name or namespace", path, ev.Seq, ev.Identity)
			}
			if prev, ok := objectOf[ev.Identity]; ok && prev != o {
				t.Fatalf("%s event %d: number %d is %+v and %+v", path, ev.Seq, ev.Identity, prev, o)
			}
			if n, ok := numberOf[o]; ok && n != ev.Identity {
				t.Fatalf("%s event %d: %+v numbered %d, then %d", path, ev.Seq, o, n, ev.Identity)
			}
			objectOf[ev.Identity], numberOf[o] = o, ev.Identity
		}
		f.Close()
		if strings.Contains(path, ".yaml") {
			continue // read by the YAML path, which does not number
		}
		if withObject > 0 && numbered < withObject*9/10 {
			t.Errorf("%s: %d of %d events with an object numbered", path, numbered, withObject)
		}
	}
}
