package app

import (
	"watchlens/app/words"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// nameUI shows a name from a capture in HTML: shortName in a <bdi>, which
// isolates it from the text around it, with the whole name in its title.
func nameUI(s string) goapp.UI {
	return goapp.Bdi().Title(s).Text(words.ShortName(s))
}
