package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// ogMeta matches the og:url and og:image go-app writes, its attributes in
// either order: it makes them absolute with its Handler's Domain, and
// writes "https://" and no host without one, whatever host the site is
// served from. ogContent is the attribute of their location.
var (
	ogMeta    = regexp.MustCompile(`<meta [^>]*property="og:(url|image)"[^>]*>`)
	ogContent = regexp.MustCompile(`content="https://[^"]*"`)
)

// ogImage is the picture a link to the site shows, under /web/.
const ogImage = "web/icon-512.png"

// hostRelativeOG writes the og:url and og:image of every page under
// outDir relative to the host, under base (the URL path the site is
// hosted under, "/" for the root): a static site does not know the host
// it is copied to.
func hostRelativeOG(outDir, base string) error {
	base = strings.TrimRight(base, "/") + "/"
	return filepath.WalkDir(outDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".html" {
			return err
		}
		rel, err := filepath.Rel(outDir, p)
		if err != nil {
			return err
		}
		page := strings.TrimSuffix(strings.TrimSuffix(filepath.ToSlash(rel), ".html"), "index")
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b = ogMeta.ReplaceAllFunc(b, func(m []byte) []byte {
			at := base + page
			if string(ogMeta.FindSubmatch(m)[1]) == "image" {
				at = base + ogImage
			}
			return ogContent.ReplaceAllLiteral(m, []byte(`content="`+at+`"`))
		})
		return os.WriteFile(p, b, 0o644)
	})
}
