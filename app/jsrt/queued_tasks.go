//go:build js && wasm

package jsrt

// AfterQueuedTasks blocks the calling goroutine until the tasks already
// queued for this thread (the messages posted to it among them) have
// run: a message to ourselves comes back behind them, where
// scheduler.yield's continuation (see Yield) comes back first. Call it
// only from a goroutine.
func AfterQueuedTasks() { selfMessages.wait() }
