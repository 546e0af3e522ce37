package app

import (
	"fmt"
	"path"
	"runtime"
	"strings"

	"watchlens/app/load"
	"watchlens/app/words"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// openURL fetches a capture by URL, from the browser: the bytes go from that
// server to this page and nowhere else. It returns its read's turn once
// the read has ended, and runs in a goroutine.
func (p *Page) openURL(ctx goapp.Context, rawURL string) load.Turn {
	// A slow server must not replace what the user opened meanwhile.
	turn := p.nextTurn()
	name := path.Base(strings.SplitN(rawURL, "?", 2)[0])
	blob, err := load.FetchLink(rawURL, name, turn, func(pr load.Progress) { p.showProgress(ctx, pr) })
	if err != nil {
		// The chunks of a download given up are JS memory that Go's
		// references keep alive until its collector runs, which its small
		// heap may not need for minutes: up to maxBytes stayed held.
		runtime.GC()
	}
	if turn.Superseded() {
		load.Ended(name, load.Superseded)
		return turn
	}
	if err != nil {
		load.Ended(name, load.Failed)
		ctx.Dispatch(func(goapp.Context) {
			p.loading = nil
			p.problem = fmt.Sprintf("%s could not be opened: %v.", words.Isolated(rawURL), err)
		})
		return turn
	}
	p.read(ctx, []load.Source{{Name: name, Blob: blob}}, viewState{url: rawURL}, turn)
	return turn
}
