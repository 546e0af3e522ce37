package app

import (
	"strconv"
	"strings"

	"watchlens/app/engine"
	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"
	"watchlens/app/words"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Sharing: a link to the view, and the summary as Markdown for a
// postmortem. A link never opens something else than what it was made
// on: made on a dropped file, which the page cannot fetch again, it names
// the file, and opens a page asking for it (renderRestore).

// copied is the last text the page put on the clipboard, shown in a
// notice with the text itself, which the user can copy by hand when the
// browser refused the clipboard.
type copied struct {
	what, text string
	failed     bool
	// pointed and focused say the pointer is over the notice, or the
	// keyboard's focus in it: the notice stays while either holds.
	pointed, focused bool
	// timers counts the hides asked for (hideCopiedLater): only the
	// latest may hide the notice.
	timers int
}

// copiedLinger is how long the notice of a copy that worked stays, from
// its showing or from the pointer or the focus leaving it: it needs no
// answer, and a glance reads it, as it does a tooltip a tap showed,
// which goes as soon.
const copiedLinger = tapTipLinger

// actionCopy: the user asked for a copy (the header's Copy buttons); its
// value is copyLink or copySummary. The copies are the page's to make: a
// link is to the page's view.
const actionCopy = "share/copy"

// What actionCopy asks for.
const (
	copyLink    = "link"
	copySummary = "summary"
)

// link is the URL of the view now shown.
func (p *Page) link(ctx goapp.Context) string {
	p.saveURL(ctx)
	return goapp.Window().Get("location").Get("href").String()
}

// copy puts on the clipboard what the user asked for (actionCopy).
func (p *Page) copy(ctx goapp.Context, what string) {
	switch what {
	case copyLink:
		p.copyText(ctx, "the link to this view", p.link(ctx))
	case copySummary:
		if p.capture == nil {
			return
		}
		eng, link := p.capture.Engine, p.link(ctx)
		// Over 10 000 virtual clients the report takes more than a
		// second as wasm: the action's handler does not wait for it.
		ctx.Async(func() {
			text, err := eng.Report(engine.ReportPaste, link)
			ctx.Dispatch(func(ctx goapp.Context) {
				if p.capture == nil || p.capture.Engine != eng {
					return // another capture shows: the summary is not its
				}
				if err != nil {
					ctx.NewActionWithValue(actionProblem, "The summary could not be written: "+err.Error())
					return
				}
				p.copyText(ctx, "the summary (Markdown)", text)
			})
		})
	}
}

// copyText puts text on the clipboard and says so; if the browser
// refuses, the notice says that and keeps the text to copy by hand.
func (p *Page) copyText(ctx goapp.Context, what, text string) {
	c := &copied{what: what, text: text}
	p.copied = c
	clip := goapp.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		c.failed = true
		return
	}
	promise := clip.Call("writeText", text)
	p.hideCopiedLater(ctx, c)
	ctx.Async(func() {
		if _, err := jsrt.Await(goappjs.Unwrap(promise)); err != nil {
			ctx.Dispatch(func(goapp.Context) { c.failed = true })
		}
	})
}

// hideCopiedLater has the notice of copy c go copiedLinger on, unless
// the pointer or the focus is in it then, or the copy failed: that
// notice holds the text to copy by hand, and stays until closed.
func (p *Page) hideCopiedLater(ctx goapp.Context, c *copied) {
	c.timers++
	n := c.timers
	ctx.After(copiedLinger, func(goapp.Context) {
		if p.copied == c && c.timers == n && !c.pointed && !c.focused && !c.failed {
			p.copied = nil
		}
	})
}

// renderCopied is the notice of the last copy.
func (p *Page) renderCopied() goapp.UI {
	c := p.copied
	msg := "Copied " + c.what + " to the clipboard."
	if c.failed {
		msg = "The browser did not let the page use the clipboard: copy " + c.what + " from here."
	}
	// Left by the pointer and the focus, the notice goes copiedLinger on.
	leave := func(ctx goapp.Context) {
		if !c.pointed && !c.focused {
			p.hideCopiedLater(ctx, c)
		}
	}
	return goapp.Div().ID("copied").Class("banner copied").Role("status").
		OnMouseEnter(func(ctx goapp.Context, e goapp.Event) { c.pointed = true }).
		OnMouseLeave(func(ctx goapp.Context, e goapp.Event) { c.pointed = false; leave(ctx) }).
		On("focusin", func(ctx goapp.Context, e goapp.Event) { c.focused = true }).
		On("focusout", func(ctx goapp.Context, e goapp.Event) { c.focused = false; leave(ctx) }).
		Body(
			goapp.Span().Text(msg+" "),
			goapp.Button().ID("copied-close").Class("quiet").Text("Close").OnClick(func(ctx goapp.Context, e goapp.Event) { p.copied = nil }),
			goapp.Textarea().ID("copied-text").ReadOnly(true).Rows(min(strings.Count(c.text, "\n")+1, 6)).Aria("label", c.what).Text(c.text),
		)
}

// visitOpensNothing marks the document (data-visit-opens="nothing" on
// <html>) once the page has decided that this visit opens no capture by
// itself: its link names dropped files, which renderRestore asks for.
// Nothing on screen tells that decision apart from one not made yet: the
// browser tests wait on the mark instead of waiting long enough for a
// wrong open to show.
func visitOpensNothing() {
	goapp.Window().Get("document").Get("documentElement").Get("dataset").Set("visitOpens", "nothing")
}

// renderRestore is what a link made on dropped files opens: the page
// cannot fetch them, so it asks for them, and restores the link's view
// once they are dropped.
func (p *Page) renderRestore() goapp.UI {
	names := make([]string, len(p.view.files))
	for i, n := range p.view.files {
		names[i] = words.Isolated(n)
	}
	count, needs := len(names), ""
	if n, ok := filesDigestCount(p.view.filesDigest); ok && count == 0 {
		// Too many to name in a link: the same ones, dropped again, are
		// told by their names' digest.
		count, needs = n, "the "+strconv.Itoa(n)+" files it was made on"
	}
	the := "the file"
	made := "The link was made on a file dropped on the page, which never leaves the browser that read it: drop it here (or open it) to restore the view, with its range, filters, selection and model settings."
	if count > 1 {
		the = "the files"
		made = "The link was made on files dropped on the page, which never leave the browser that read them: drop them here (or open them) to restore the view, with its range, filters, selection and model settings."
	}
	if needs == "" {
		needs = the + " " + strings.Join(names, ", ")
	}
	return goapp.Main().ID("restore").Class("restore").Body(
		goapp.H2().Text("This view needs "+needs),
		goapp.P().Text(made),
		goapp.Button().ID("restore-choose").Text("Open "+the+"…").OnClick(chooseFiles),
	)
}
