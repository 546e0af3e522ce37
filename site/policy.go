package site

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// sitePolicy is the Content-Security-Policy of the site's pages, given the
// hashes ('sha256-...') of the inline scripts they hold. It allows what
// the page uses and nothing else:
//   - scripts: the site's own files, the hashed inline ones, and the
//     compiling of WebAssembly ('wasm-unsafe-eval'); no inline script
//     that was not built with the site, no eval, nothing from elsewhere;
//   - connections: the site, and any https: server, since a capture's
//     link (?url=) is the user's choice;
//   - workers (the file reader, the service worker), styles, images,
//     the manifest: the site's own files. go-app writes an element's
//     Style as a style attribute, which cannot run script: style
//     attributes are allowed, style elements are not;
//   - no plugins, no forms sent anywhere, no <base> that moves the
//     site's links, no frames in the page.
//
// Framing the page is forbidden by frameAncestors, which only a header
// can carry.
func sitePolicy(scriptHashes []string) string {
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self' 'wasm-unsafe-eval' " + strings.Join(scriptHashes, " "),
		"style-src 'self'",
		"style-src-attr 'unsafe-inline'",
		"img-src 'self'",
		"connect-src 'self' https:",
		"worker-src 'self'",
		"frame-src 'none'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'none'",
	}, "; ")
}

// frameAncestors forbids other sites to frame the page (clickjacking). A
// policy in a meta tag ignores it, so it goes in a header: Handler sends
// it, and a host of the static site should (docs/hosting.md).
const frameAncestors = "frame-ancestors 'self'"

// inlineScript finds a page's script elements and their text.
var inlineScript = regexp.MustCompile(`(?s)<script([^>]*)>(.*?)</script>`)

// addPolicies writes the site's policy, with the hashes of its inline
// scripts, into every page go-app generated under outDir, as the first
// element after the charset: a policy in a meta tag only governs what
// comes after it.
func addPolicies(outDir string) error {
	return filepath.WalkDir(outDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == filepath.Join(outDir, "web") {
			return fs.SkipDir // the app's assets and samples, no pages
		}
		if d.IsDir() || filepath.Ext(p) != ".html" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		page := string(b)
		var hashes []string
		for _, m := range inlineScript.FindAllStringSubmatch(page, -1) {
			if strings.Contains(m[1], "src=") {
				continue
			}
			sum := sha256.Sum256([]byte(m[2]))
			hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
		}
		const charset = `<meta charset="UTF-8">`
		at := strings.Index(page, charset)
		if at < 0 {
			return fmt.Errorf("%s: no %s to put the security policy after", p, charset)
		}
		at += len(charset)
		meta := `<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(sitePolicy(hashes)) + `">`
		return os.WriteFile(p, []byte(page[:at]+meta+page[at:]), 0o644)
	})
}
