//go:build !(js && wasm)

package goappjs

import (
	"watchlens/app/jsrt"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Unwrap has no JavaScript value to return outside the browser.
func Unwrap(goapp.Value) jsrt.Value { return jsrt.Value{} }
