package load

import (
	"fmt"
	"os"
	"runtime/debug"
)

// Safely runs a load's work and returns the panic that ended it, if any.
// A panic in a goroutine ends the whole Go program, which leaves the page
// on its last progress report with nothing working; recovered, it ends
// the load with a message, and the page can open another capture. The
// stack goes to the browser's console, for a bug report.
func Safely(work func()) (failure error) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(os.Stderr, "watchlens: a load failed: %v\n%s", v, debug.Stack())
			failure = fmt.Errorf("%v", v)
		}
	}()
	work()
	return nil
}
