package main

import (
	"watchlens/app"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// main runs the app in the browser, where RunWhenOnBrowser never returns.
func main() {
	app.Register()
	goapp.RunWhenOnBrowser()
}
