package app

// askers runs the views' questions to the engine's worker: a frame at
// each move of a pan, a hit test at each move of the pointer. Each runs
// on a goroutine the pool keeps, which waits for the next question once
// it has asked one, rather than on a goroutine of its own, as
// ctx.Async starts. As wasm, a goroutine started for each question grew
// its stack by copying it (the question's encoding and its trip through
// syscall/js run deeper than a new goroutine's stack) and freed it as it
// ended, all in the handler of the pointer's event, before the question
// was posted (docs/performance.md, "panning 1 M events").
var askers = goroutinePool{idle: make(chan func())}

// goroutinePool runs funcs on goroutines that it keeps once they have
// run one: run hands f to a goroutine waiting for work, and starts one
// when none is. There are as many as the most funcs ever run at once,
// each asking its question while the others wait for their answers.
type goroutinePool struct {
	idle chan func() // unbuffered: a send is taken only by a goroutine waiting
}

// run runs f on a goroutine of the pool, at once.
func (p *goroutinePool) run(f func()) {
	select {
	case p.idle <- f:
	default:
		go p.serve(f)
	}
}

// serve runs f, then each func handed to it, for ever.
func (p *goroutinePool) serve(f func()) {
	for {
		f()
		f = <-p.idle
	}
}
