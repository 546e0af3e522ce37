package canvas

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"watchlens/app/words"
	"watchlens/timeline"
)

// gutterRuneW is a letter's width in the gutter's font (web/timeline.js,
// 11 px), CSS px, on average over the fleet's names: Chromium's
// screenshot of samples-outage's fleet (TestBrowserFleetOfAuditLogsAlone)
// fits "fleet-s019-secret-bookmar…" in the gutter's 162 px.
const gutterRuneW = 6.5

// drawnAs is what web/timeline.js draws of the text tx: its Short when
// the text does not fit its MaxWidth, cut with an ellipsis to fit: a
// Short from just after its own ellipsis (its end stays), any other text
// from the right.
func drawnAs(tx Text) string {
	fits := func(s string) bool { return float32(utf8.RuneCountInString(s))*gutterRuneW <= tx.MaxWidth }
	s := tx.Text
	short := tx.Short != "" && !fits(s)
	if short {
		s = tx.Short
	}
	if fits(s) {
		return s
	}
	keep := max(int(math.Floor(float64(tx.MaxWidth)/gutterRuneW)), 0)
	if head, tail, ok := strings.Cut(s, "…"); short && ok {
		head += "…"
		rest := []rune(tail)
		return head + string(rest[len(rest)-max(min(keep-utf8.RuneCountInString(head), len(rest)), 0):])
	}
	return string([]rune(s)[:max(keep-1, 0)]) + "…"
}

// TestGutterNamesTellRowsApart: in the recordings' fleets, as a desktop's
// and a phone's page draw them, no two rows whose clients' names differ have the same
// label in the gutter. samples-outage's audit logs alone name 20 clients
// of one User-Agent, whose names differ only at their end ("…shard=s31,
// informer 1"); cut from the right they all read "⚠ fleet/v0.0.0 (linu…".
// The tooltip over such a row still names its client whole.
func TestGutterNamesTellRowsApart(t *testing.T) {
	for _, c := range []struct {
		name     string
		patterns []string
		short    int // rows that must have a short label, at least
	}{
		{"samples-outage", []string{"audit-*.log"}, 20},
		{"samples-fleet", []string{"*.ts.http", "audit-*.log"}, 0},
		{"samples-lab", []string{"*.ts.http", "audit-*.log"}, 0},
		{"samples-lab", []string{"audit-*.log"}, 0},
	} {
		t.Run(c.name+"/"+strings.Join(c.patterns, ","), func(t *testing.T) {
			tl := recordingTimeline(t, c.name, c.patterns...)
			d := NewFleetData(tl.Analyze(timeline.DefaultParams()))
			if d == nil {
				t.Fatal("no fleet")
			}
			shortened := 0
			for _, row := range d.Rows {
				if row.Short != "" {
					shortened++
				}
			}
			if shortened < c.short {
				t.Errorf("%d of %d rows have a short label, want at least %d", shortened, len(d.Rows), c.short)
			}
			drawn := gutterLabels(t, d, 1280)
			// The tooltip over a row with a short label names its client
			// whole.
			v := &FleetViewport{From: d.From, To: d.To, Width: 1280, PixelRatio: 1}
			l := NewFleetLayout(v.Width, 0, len(d.Rows), d.Groups, d.namesRoom(v.Width))
			for r := range d.Rows {
				if d.Rows[r].Short == "" {
					continue
				}
				v.ScrollY = l.ClampScroll(float64(r) * FleetRowH)
				if h := d.HitTest(v, &l, 20, l.RowY(r, v.ScrollY)+FleetRowH/2); h.Row != r || !strings.HasPrefix(h.Text, words.Isolated(d.Rows[r].Client.Name)+"\n") {
					t.Errorf("row %d, drawn %q: its tooltip %q", r, drawn[r], h.Text)
				}
			}
			// A desktop's and a phone's gutter: the phone's is too narrow
			// even for the short labels, which keep their end.
			for _, w := range []float64{1280, 390} {
				if w != 1280 {
					drawn = gutterLabels(t, d, w)
				}
				byLabel := map[string]int{}
				for r, s := range drawn {
					if o, ok := byLabel[s]; ok && d.Rows[o].Label != d.Rows[r].Label {
						t.Errorf("%v px: rows %d and %d both read %q:\n  %s\n  %s", w, o, r, s, d.Rows[o].Label, d.Rows[r].Label)
					}
					byLabel[s] = r
				}
			}
		})
	}
}

// gutterLabels is what the fleet view w px wide draws in each row's
// gutter, scrolled to every row in turn.
func gutterLabels(t *testing.T, d *FleetData, w float64) []string {
	t.Helper()
	drawn := make([]string, len(d.Rows))
	var fr Frame
	var buf FleetScratch
	v := &FleetViewport{From: d.From, To: d.To, Width: w, PixelRatio: 1}
	for seen := 0; seen < len(d.Rows); {
		l := d.Build(v, &fr, &buf)
		first, last := l.VisibleRows(v.ScrollY)
		for _, tx := range fr.Texts {
			if tx.X != 6 || tx.MaxWidth == 0 || float64(tx.Y) < l.RowsY {
				continue
			}
			r := l.RowAt(float64(tx.Y), v.ScrollY)
			if r < 0 || r < first || r >= last || drawn[r] != "" {
				t.Fatalf("a gutter label %q at y %v, rows [%d, %d) in view", tx.Text, tx.Y, first, last)
			}
			drawn[r] = strings.TrimPrefix(drawnAs(tx), "✗ ")
			seen++
		}
		v.ScrollY += l.RowsH
	}
	return drawn
}
