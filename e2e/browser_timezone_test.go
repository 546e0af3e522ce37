//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// pageInstant is an instant as the page writes it in a sentence.
var pageInstant = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} ([A-Z]+|[-+]\d\d(:?\d\d)?)`)

// TestBrowserTimeZone switches the settings' zone from UTC to the
// reader's, in a browser whose zone is Europe/Paris, and checks that the
// verdict's instants and the time axis's labels move to CET and name it,
// at the same instants; and that the link keeps the choice.
func TestBrowserTimeZone(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("the browser tests need Debian's chromium at %s (%v)", chromiumPath, err)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	must(t, err)
	s := startSite(t)
	tab := s.newTab(t)
	_, err = chromedp.Call(tab, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Europe/Paris"})
	must(t, err)
	// The texts of each frame the page draws, as web/timeline.js gets
	// them, from the first: the page draws a capture's timeline once.
	_, err = chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		let draw;
		Object.defineProperty(window, "watchlensDraw", {configurable: true, get: () => draw, set: (fn) => {
			draw = function (canvas, spec, ...rest) {
				canvas.dataset.texts = JSON.stringify(JSON.parse(spec).texts.map((t) => t.s));
				return fn.call(this, canvas, spec, ...rest);
			};
		}});
	})()`})
	must(t, err)
	const name = "w4-then-resume.ts.http"
	navigate(t, tab, s.url+"/?sample="+name)
	checkShown(t, tab, name, "samples/"+name)

	utcVerdict := verdictInstants(t, tab, "UTC")
	utcAxis := axisTexts(t, tab, "UTC")
	screenshot(t, tab, "timezone-utc")

	must(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS("#tab-settings"))))
	must(t, chromedp.Do(tab, chromedp.SetValue(chromedp.CSS("#set-zone"), "local"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#set-zone").dispatchEvent(new Event("change", {bubbles: true}))`)))
	localVerdict := verdictInstants(t, tab, "CET")
	localAxis := axisTexts(t, tab, "CET")
	screenshot(t, tab, "timezone-local")

	if len(localVerdict) != len(utcVerdict) {
		t.Fatalf("the verdict has %d instants in UTC, %d in the reader's zone", len(utcVerdict), len(localVerdict))
	}
	for k := range utcVerdict {
		u, errU := time.Parse("2006-01-02 15:04:05.000 MST", utcVerdict[k])
		p, errP := time.ParseInLocation("2006-01-02 15:04:05.000 MST", localVerdict[k], paris)
		if errU != nil || errP != nil || !u.Equal(p) {
			t.Errorf("the verdict's instant %d reads %q in UTC and %q in Europe/Paris: not the same instant", k, utcVerdict[k], localVerdict[k])
		}
	}
	// The axis's labels are times of day an hour later, at the same
	// places (the range shown did not move).
	ticks := func(texts []string) []string {
		var out []string
		for _, s := range texts {
			if regexp.MustCompile(`^\d\d:\d\d(:\d\d(\.\d+)?)?$`).MatchString(s) {
				out = append(out, s)
			}
		}
		return out
	}
	ut, lt := ticks(utcAxis), ticks(localAxis)
	if len(ut) == 0 || len(ut) != len(lt) {
		t.Fatalf("the axis has %d time labels in UTC (%q), %d in CET (%q)", len(ut), ut, len(lt), lt)
	}
	for k := range ut {
		var hu, hl int
		if _, err := fmt.Sscanf(ut[k][:2]+" "+lt[k][:2], "%d %d", &hu, &hl); err != nil || hl != (hu+1)%24 || ut[k][2:] != lt[k][2:] {
			t.Errorf("the axis's label %d reads %q in UTC and %q in CET: want an hour later", k, ut[k], lt[k])
		}
	}
	link, err := chromedp.Run(tab, chromedp.Location())
	must(t, err)
	if !strings.Contains(link, "tz=local") {
		t.Errorf("the link %s does not keep the reader's zone (tz=local)", link)
	}
}

// verdictInstants waits until every instant of the verdict names zone,
// and returns them.
func verdictInstants(t *testing.T, tab context.Context, zone string) []string {
	t.Helper()
	var text string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var err error
		text, err = chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#verdict")?.textContent ?? ""`))
		must(t, err)
		if all := pageInstant.FindAllStringSubmatch(text, -1); len(all) > 0 && allZone(all, zone) {
			var out []string
			for _, m := range all {
				out = append(out, m[0])
			}
			return out
		}
	}
	t.Fatalf("the verdict's instants are not all in %s: %q", zone, text)
	return nil
}

func allZone(ms [][]string, zone string) bool {
	for _, m := range ms {
		if m[1] != zone {
			return false
		}
	}
	return true
}

// axisTexts waits until the timeline's last frame names zone on its axis,
// and returns the frame's texts.
func axisTexts(t *testing.T, tab context.Context, zone string) []string {
	t.Helper()
	var texts []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var err error
		texts, err = chromedp.Run(tab, chromedp.Evaluate[[]string](`JSON.parse(document.querySelector("#timeline canvas")?.dataset.texts ?? "[]")`))
		must(t, err)
		for _, s := range texts {
			if s == zone {
				return texts
			}
		}
	}
	t.Fatalf("the timeline's axis does not name %s: %q", zone, texts)
	return nil
}
