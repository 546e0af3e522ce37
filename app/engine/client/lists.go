//go:build js && wasm

package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"syscall/js"
	"time"

	"watchlens/app/jsrt"
)

// listOf reads the answer's field name, a JSON array, into list, an
// element at a time, letting the page run between them once it has
// held it for listHold (jsrt.YieldIfHeldFor): the answer's long lists
// (an open's files: 10 001 for 10 000 virtual clients) read whole by
// json.Unmarshal would hold the page's thread in one long task. As
// json.Unmarshal does, null reads as a nil list, [] as an empty one.
func listOf[T any](m js.Value, name string, list *[]T) error {
	b, err := bytesOf(m, name)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if t == nil {
		*list = nil
		return nil
	}
	if t != json.Delim('[') {
		return fmt.Errorf("%s: not a list", name)
	}
	out := []T{}
	for dec.More() {
		var x T
		if err := dec.Decode(&x); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, x)
		if len(out)%listYieldEvery == 0 {
			jsrt.YieldIfHeldFor(listHold)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	*list = out
	return nil
}

// listHold is how long listOf holds the page between yields: far below
// a long task's 50 ms. Held to jsrt.HoldAtMost, in wall time, a busy
// machine stretched its tasks past that line (docs/performance.md, "1 M
// events split into 10 000 virtual clients"), and a yield costs little.
const listHold = 10 * time.Millisecond

// listYieldEvery is how many elements listOf reads between its looks at
// the clock: a millisecond or two of them as wasm on a busy machine.
const listYieldEvery = 16
