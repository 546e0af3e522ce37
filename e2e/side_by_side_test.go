//go:build !wasm

package e2e

import "testing"

// checks are subtests that run side by side, each in tabs of its own,
// inside one subtest of the test that gathered them: go test runs
// parallel subtests only once their parent's body has returned, so the
// group lets the parent run checks that need theirs after them. The
// group runs no more at once than go test runs tests (-parallel), so a
// page has no more tabs beside it than among the other tests.
type checks struct {
	t     *testing.T
	name  string
	names []string
	fns   []func(*testing.T)
}

// sideBySide gathers checks for t to run as the subtest name (run).
func sideBySide(t *testing.T, name string) *checks {
	return &checks{t: t, name: name}
}

// Run adds the check name, run as a parallel subtest by run.
func (c *checks) Run(name string, f func(*testing.T)) {
	c.names = append(c.names, name)
	c.fns = append(c.fns, f)
}

// run runs the checks gathered, side by side, and returns once they have
// all ended.
func (c *checks) run() {
	c.t.Helper()
	c.t.Run(c.name, func(t *testing.T) {
		for i, f := range c.fns {
			t.Run(c.names[i], func(t *testing.T) {
				t.Parallel()
				f(t)
			})
		}
	})
}
