package canvas

import (
	"encoding/binary"
	"math"
)

// One frame of the timeline canvas as data: a list of drawing operations
// over one float32 buffer, built in Go and drawn by a single call into
// web/timeline.js (one Go->JS call per event would cost milliseconds per
// thousand marks; see docs/design/browser-notes.md, "Batch drawing").

// Op is one batched drawing operation over the frame's coordinates
// [Offset, Offset+Count) (or, for text, over Texts[Offset:Offset+Count]).
// The JSON names are short: web/timeline.js reads them every frame.
//
//	rect:   x, y, w, h per rect, filled
//	mark:   cx, cy per mark, shape Shape of size Size
//	seg:    x1, y1, x2, y2 per segment, stroked with width Size, dashed if Dashed
//	clip:   x, y, w, h; everything until unclip is clipped to it
//	text:   the texts
type Op struct {
	Kind   string  `json:"k"`
	Color  string  `json:"c,omitempty"` // colour, or a CSS custom property ("--fg") the page defines
	Shape  string  `json:"s,omitempty"`
	Size   float32 `json:"z,omitempty"`
	Alpha  float32 `json:"a,omitempty"` // alpha; 0 means opaque
	Dashed bool    `json:"d,omitempty"`
	Offset int     `json:"o"`
	Count  int     `json:"n"`
}

// Text is one label at (X, Y); Align is the alignment ("l", "r", "c"),
// Font the font ("" regular, "b" bold) and MaxWidth, when set, the most
// CSS px it may take. Short, when set, is a shorter text drawn instead
// of Text when Text does not fit in MaxWidth (only the browser knows the
// text's width): a shorter wording, or what tells the label from its
// neighbours at its end, behind an ellipsis; where Short does not fit
// either, the browser cuts it, a Short with an ellipsis from just after
// that ellipsis, so that its end stays. Backed draws
// it on a box of the page's background, for a label over the plot.
type Text struct {
	X        float32 `json:"x"`
	Y        float32 `json:"y"`
	Text     string  `json:"s"`
	Color    string  `json:"c"`
	Align    string  `json:"a,omitempty"`
	Font     string  `json:"f,omitempty"`
	MaxWidth float32 `json:"m,omitempty"`
	Short    string  `json:"h,omitempty"`
	Backed   bool    `json:"k,omitempty"`
}

// Frame is what web/timeline.js draws; Width and Height are CSS pixels.
type Frame struct {
	Width      float64 `json:"w"`
	Height     float64 `json:"h"`
	PixelRatio float64 `json:"dpr"`
	Ops        []Op    `json:"ops"`
	Texts      []Text  `json:"texts"`
	// Sticky is the height of the frame's top band, its time axis, which
	// the page keeps in view when the canvas scrolls under it; 0 for none.
	Sticky float64 `json:"sticky,omitempty"`
	floats []float32
}

// Floats writes the frame's coordinates as the little-endian float32s of
// the Float32Array web/timeline.js reads into buf, grown when it is too
// small, and returns them and their count.
func (f *Frame) Floats(buf []byte) ([]byte, int) {
	n := len(f.floats)
	if cap(buf) < 4*n {
		buf = make([]byte, 4*n+4*n/4)
	}
	b := buf[:4*n]
	for i, v := range f.floats {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b, n
}

func (f *Frame) reset(w, h, dpr float64) {
	f.Width, f.Height, f.PixelRatio, f.Sticky = w, h, dpr, 0
	f.Ops, f.Texts, f.floats = f.Ops[:0], f.Texts[:0], f.floats[:0]
}

// add appends an operation over floats already collected elsewhere.
func (f *Frame) add(op Op, floats []float32) {
	if len(floats) == 0 {
		return
	}
	op.Offset, op.Count = len(f.floats), len(floats)
	f.floats = append(f.floats, floats...)
	f.Ops = append(f.Ops, op)
}

func (f *Frame) rect(c string, alpha float32, x, y, w, h float64) {
	f.add(Op{Kind: "rect", Color: c, Alpha: alpha}, []float32{float32(x), float32(y), float32(w), float32(h)})
}

func (f *Frame) clip(x, y, w, h float64) {
	f.add(Op{Kind: "clip"}, []float32{float32(x), float32(y), float32(w), float32(h)})
}

func (f *Frame) unclip() { f.Ops = append(f.Ops, Op{Kind: "unclip"}) }

// flushTexts flushes the labels added since start as one text operation.
func (f *Frame) flushTexts(start int) { f.flushTextRange(start, len(f.Texts)) }

// flushTextRange flushes the labels Texts[start:end] as one text
// operation, after the operations added since they were.
func (f *Frame) flushTextRange(start, end int) {
	if end > start {
		f.Ops = append(f.Ops, Op{Kind: "text", Offset: start, Count: end - start})
	}
}

func (f *Frame) addText(x, y float64, s, c, align, font string) {
	f.Texts = append(f.Texts, Text{X: float32(x), Y: float32(y), Text: s, Color: c, Align: align, Font: font})
}

// addTextWithin is addText with a text that web/timeline.js cuts, with an ellipsis, to at
// most w CSS px: a label from the capture is clipped to a number of
// characters, and wide characters still ran it off the canvas or over the
// plot; only the browser knows their width.
func (f *Frame) addTextWithin(x, y, w float64, s, c, align, font string) {
	f.addText(x, y, s, c, align, font)
	f.Texts[len(f.Texts)-1].MaxWidth = float32(w)
}

// addLabelWithin is addTextWithin with short, the text drawn instead of s
// when s does not fit in w (see Text.Short).
func (f *Frame) addLabelWithin(x, y, w float64, s, short, c, align, font string) {
	f.addTextWithin(x, y, w, s, c, align, font)
	f.Texts[len(f.Texts)-1].Short = short
}
