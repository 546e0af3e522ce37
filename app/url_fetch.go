package app

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// openURL fetches a capture by URL, from the browser: the bytes go from that
// server to this page and nowhere else. It runs in a goroutine.
func (p *Page) openURL(ctx goapp.Context, rawURL string) {
	// A slow server must not replace what the user opened meanwhile.
	turn := p.nextTurn()
	blob, err := fetchLink(rawURL)
	if turn.superseded() {
		return
	}
	if err != nil {
		ctx.Dispatch(func(goapp.Context) {
			p.problem = fmt.Sprintf("%s could not be opened: %v.", rawURL, err)
		})
		return
	}
	name := path.Base(strings.SplitN(rawURL, "?", 2)[0])
	p.read(ctx, []source{{name: name, blob: blob}}, viewState{url: rawURL}, turn)
}

// fetchLink GETs the capture a link names and, when that fails, says what
// happened in words an engineer can act on.
func fetchLink(rawURL string) (goapp.Value, error) {
	target, sameOrigin, err := resolveLink(rawURL)
	if err != nil {
		return nil, err
	}
	resp, err := await(goapp.Window().Call("fetch", target))
	if err != nil {
		return nil, fetchFailure(err, sameOrigin)
	}
	if !resp.Get("ok").Truthy() {
		return nil, httpFailure(resp)
	}
	return await(resp.Call("blob"))
}

// resolveLink resolves a link against the page and refuses what is no
// http(s) URL: a javascript: or data: link is no capture to fetch.
func resolveLink(rawURL string) (target string, sameOrigin bool, err error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", false, fmt.Errorf("it is not a URL (%v)", err)
	}
	page, err := url.Parse(goapp.Window().Get("location").Get("href").String())
	if err != nil {
		return "", false, err
	}
	u = page.ResolveReference(u)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", false, fmt.Errorf("it is a %s: link, and the page opens only http and https links", u.Scheme)
	}
	return u.String(), u.Scheme == page.Scheme && u.Host == page.Host, nil
}

// fetchFailure says why fetch failed. The browser gives one TypeError for
// every failure to get an answer, and hides which it was: a server that
// cannot be reached, a broken connection, or a server on another site that
// does not let this page read its answer.
func fetchFailure(err error, sameOrigin bool) error {
	var rej jsRejection
	if !errors.As(err, &rej) || rej.name != "TypeError" {
		return err
	}
	if sameOrigin {
		return errors.New("a network error: the server could not be reached or the connection broke")
	}
	return errors.New("a network error or the server does not allow cross-origin reads (CORS); the browser does not say which. Check that the server is up and sends Access-Control-Allow-Origin")
}

// httpFailure says what the server answered instead of the capture.
func httpFailure(resp goapp.Value) error {
	status := resp.Get("status").Int()
	text := resp.Get("statusText").String()
	if text == "" { // HTTP/2 answers carry no reason phrase
		text = http.StatusText(status)
	}
	return fmt.Errorf("the server answered HTTP %d %s", status, text)
}
