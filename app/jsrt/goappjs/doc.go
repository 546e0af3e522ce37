// Package goappjs is where the page's go-app Values meet jsrt, which is
// written on syscall/js: go-app's app.Value wraps a js.Value and exports
// no way back to it. The other way needs nothing of this package:
// app.ValueOf wraps a js.Value.
package goappjs
