package cputime

import "time"

// Step times the steps of a benchmark's round one after the other, by
// the wall and by the process's CPU.
type Step struct {
	wall time.Time
	cpu  float64
}

// Start starts the first step.
func (s *Step) Start() { s.wall, s.cpu = time.Now(), Process() }

// End adds the time since the last step's end (or Start) to wall and
// cpu, and starts the next step.
func (s *Step) End(wall, cpu *time.Duration) {
	w, c := s.wall, s.cpu
	s.Start()
	*wall += s.wall.Sub(w)
	*cpu += time.Duration((s.cpu - c) * 1e9)
}
