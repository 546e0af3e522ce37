package load

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"
	"watchlens/internal/quantity"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ErrSuperseded ends a load or a fetch the user no longer waits for: the
// page began another read first.
var ErrSuperseded = errors.New("another capture was opened")

// FetchLink GETs the capture a link names into a Blob, reporting its
// progress as a file's read is reported, and, when that fails, says what
// happened in words an engineer can act on. A body larger than
// limits.maxBytes is refused (by its Content-Length when the server gives
// one, else once that much came), and so is a server that sends nothing
// for limits.stall.
func FetchLink(rawURL, name string, turn Turn, report func(Progress)) (goapp.Value, error) {
	target, sameOrigin, err := resolveLink(rawURL)
	if err != nil {
		return nil, err
	}
	abort := goapp.Window().Get("AbortController").New()
	defer abort.Call("abort") // ends the transfer whenever this returns early
	opts := goapp.Window().Get("Object").New()
	opts.Set("signal", abort.Get("signal"))
	// Until the server's headers come, which a slow one takes seconds
	// to send, the page says whom it waits for (it stayed blank).
	if u, err := url.Parse(target); err == nil {
		report(Progress{Name: name, Size: -1, Downloading: true, Connecting: u.Host})
	}
	resp, err := awaitLink(goapp.Window().Call("fetch", target, opts), turn, 0)
	if err != nil {
		return nil, fetchFailure(err, sameOrigin)
	}
	if !resp.Get("ok").Truthy() {
		return nil, httpFailure(resp)
	}
	size := int64(-1)
	if n, err := strconv.ParseInt(resp.Get("headers").Call("get", "Content-Length").String(), 10, 64); err == nil {
		size = n
	}
	if size > limits.maxBytes {
		return nil, fmt.Errorf("the server says it is %s, more than the %s the page reads; for larger captures download it and use the command line: watchlens analyze FILE", quantity.Bytes(size), quantity.Bytes(limits.maxBytes))
	}
	report(Progress{Name: name, Size: size, Downloading: true})
	// The body stays on the JS side, as a dropped file does: Go keeps
	// only its count.
	body := resp.Get("body").Call("getReader")
	parts := goapp.Window().Get("Array").New()
	// A download given up (too large, stalled, broken, superseded) lets
	// go of the chunks that came at once: the caller collects them.
	complete := false
	defer func() {
		if !complete {
			parts.Set("length", 0)
		}
	}()
	var got int64
	lastReport := time.Now()
	for {
		chunk, err := awaitLink(body.Call("read"), turn, got)
		if err != nil {
			var rej jsrt.Rejection
			if errors.As(err, &rej) {
				return nil, fmt.Errorf("the connection broke after %s (%v)", quantity.Bytes(got), err)
			}
			return nil, err
		}
		if chunk.Get("done").Truthy() {
			break
		}
		v := chunk.Get("value")
		got += int64(v.Get("byteLength").Float())
		if got > limits.maxBytes {
			return nil, fmt.Errorf("it is more than the %s the page reads, and the page stopped downloading it there; for larger captures download it and use the command line: watchlens analyze FILE", quantity.Bytes(limits.maxBytes))
		}
		parts.Call("push", v)
		if time.Since(lastReport) >= progressEvery {
			lastReport = time.Now()
			report(Progress{Name: name, Size: size, Read: got, Downloading: true})
		}
	}
	complete = true
	return goapp.Window().Get("Blob").New(parts), nil
}

// awaitLink awaits a step of a link's fetch, giving up on it when the
// user opens something else or when the server sends nothing for
// limits.stall; got is how much came before, for the message.
func awaitLink(promise goapp.Value, turn Turn, got int64) (goapp.Value, error) {
	type settled struct {
		v   goapp.Value
		err error
	}
	done := make(chan settled, 1)
	go func() {
		v, err := jsrt.Await(goappjs.Unwrap(promise))
		done <- settled{goapp.ValueOf(v), err}
	}()
	stall := time.NewTimer(limits.stall)
	defer stall.Stop()
	// A read the user has left is dropped within a quarter of a second.
	check := time.NewTicker(250 * time.Millisecond)
	defer check.Stop()
	for {
		select {
		case s := <-done:
			return s.v, s.err
		case <-stall.C:
			if got == 0 {
				return nil, fmt.Errorf("the server stopped answering: no data came for %v", limits.stall)
			}
			return nil, fmt.Errorf("the server stopped sending after %s: no data came for %v", quantity.Bytes(got), limits.stall)
		case <-check.C:
			if turn.Superseded() {
				return nil, ErrSuperseded
			}
		}
	}
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
	sameOrigin = u.Scheme == page.Scheme && u.Host == page.Host
	// The site's security policy (connect-src, site_csp.go) refuses it,
	// and the browser would only say "network error".
	if !sameOrigin && u.Scheme == "http" {
		return "", false, errors.New("it is a plain http link to another site, and the page reads other sites only over https")
	}
	return u.String(), sameOrigin, nil
}

// fetchFailure says why fetch failed. The browser gives one TypeError for
// every failure to get an answer, and hides which it was: a server that
// cannot be reached, a broken connection, or a server on another site that
// does not let this page read its answer.
func fetchFailure(err error, sameOrigin bool) error {
	var rej jsrt.Rejection
	if !errors.As(err, &rej) || rej.Name != "TypeError" {
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
