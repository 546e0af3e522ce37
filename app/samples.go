package app

import (
	"strings"

	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// sample is a built-in capture and what it shows.
type sample struct {
	name, about string
}

// fetchSamples lists the built-in samples from their manifest, which the
// build ships beside them: name, size, counts, what it shows.
func fetchSamples(ctx goapp.Context) ([]sample, error) {
	blob, err := fetchSample(ctx, "MANIFEST.tsv")
	if err != nil {
		return nil, err
	}
	text, err := jsrt.Await(goappjs.Unwrap(blob.Call("text")))
	if err != nil {
		return nil, err
	}
	return parseManifest(goapp.ValueOf(text).String()), nil
}

func parseManifest(tsv string) []sample {
	var out []sample
	for i, line := range strings.Split(tsv, "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 || cols[0] == "" {
			continue // the header, or the last line's end
		}
		sm := sample{name: cols[0]}
		if len(cols) >= 4 {
			sm.about = cols[3]
		}
		// A time-stamped twin is described as "same, ..." after its
		// original: say what the original shows too.
		if strings.HasPrefix(sm.about, "same") && len(out) > 0 {
			sm.about = out[len(out)-1].about + " (" + sm.about + ")"
		}
		out = append(out, sm)
	}
	return out
}

// sampleAbout says what the open built-in sample shows, "" for other files.
func (p *Page) sampleAbout() string { return p.aboutOf(p.view.sample) }

// aboutOf is what the built-in sample name shows, "" for none (or no
// sample: name "").
func (p *Page) aboutOf(name string) string {
	for _, sm := range p.samples {
		if sm.name == name {
			return sm.about
		}
	}
	return ""
}

// fetchSample fetches a file of the built-in samples, under the site's
// base path.
func fetchSample(ctx goapp.Context, name string) (goapp.Value, error) {
	return fetchStatic(ctx, "/web/samples/"+name)
}

// fetchStatic fetches the site's file at path, under its base path, as a
// Blob.
func fetchStatic(ctx goapp.Context, path string) (goapp.Value, error) {
	blob, err := jsrt.FetchBlob(ctx.ResolveStaticResource(path))
	return goapp.ValueOf(blob), err
}
