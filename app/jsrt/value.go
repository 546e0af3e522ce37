//go:build js && wasm

package jsrt

import "syscall/js"

// Value is a JavaScript value: syscall/js's own. The name lets the page's
// packages, which also build outside the browser, speak of one.
type Value = js.Value
