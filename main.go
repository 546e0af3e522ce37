// Command watchlens reads recorded Kubernetes watch captures and shows where a
// reconnecting client would have hit 410 Gone. Compiled for GOOS=js it is the
// browser app; natively it is the CLI that serves and builds that app and
// analyses captures for reports in CI and postmortems.
package main

import (
	"os"

	"watchlens/app"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	app.Register()
	// In the browser this never returns; natively it returns at once.
	goapp.RunWhenOnBrowser()
	os.Exit(runCLI(os.Args[1:], os.Stdout, os.Stderr))
}
