package canvas

// Encoded is a frame as web/timeline.js's watchlensDraw takes it: its
// spec's JSON (Frame.Spec) and the little-endian bytes of its N floats
// (Frame.Floats). A frame the engine's worker built comes to the page so,
// and is drawn as it came, not read back into a Frame first.
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
