package canvas

// Encoded is a frame as web/timeline.js's watchlensDraw takes it: its
// spec's JSON (Frame.Spec) and the little-endian bytes of its N floats
// (Frame.Floats), as a frame built in the page's own wasm is sent; one the
// engine's worker built comes as an EncodedJS.
type Encoded struct {
	Spec   string
	Floats []byte
	N      int
}

// Encode writes the frame into e, reusing e's buffer.
func (f *Frame) Encode(e *Encoded) error {
	spec, err := f.Spec()
	if err != nil {
		return err
	}
	e.Spec = string(spec)
	e.Floats, e.N = f.Floats(e.Floats)
	return nil
}

// EncodedJS is Encoded as the engine's worker sent it, its parts the
// JavaScript values that came (syscall/js Values): the spec's JSON string
// and a Uint8Array of the bytes of its N floats. The page hands them to
// watchlensDraw as they are, never copying them into Go and back.
type EncodedJS struct {
	Spec, Bytes any
	N           int
}
