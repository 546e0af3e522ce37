// Package app is the browser user interface: go-app components that read a
// capture the user drops, hand it to the parser and the timeline, and render
// what they answer. Nothing here decides what a capture means.
package app

import goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

// Register routes the app's pages; it runs natively too, where go-app
// pre-renders the pages of the static site.
func Register() {
	goapp.Route("/", func() goapp.Composer { return &Page{} })
}
