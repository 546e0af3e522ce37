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
// that ellipsis, so that its end stays. Box, when set, is the colour of
// a box the browser draws under the text, sized to the text as drawn
// (only the browser measures it): the page's background (ColorBg) under
// a label over the plot, so that what it covers reads as covered.
type Text struct {
	X        float32 `json:"x"`
	Y        float32 `json:"y"`
	Text     string  `json:"s"`
	Color    string  `json:"c"`
	Align    string  `json:"a,omitempty"`
	Font     string  `json:"f,omitempty"`
	MaxWidth float32 `json:"m,omitempty"`
	Short    string  `json:"h,omitempty"`
	Box      string  `json:"k,omitempty"`
}

// Frame is what web/timeline.js draws; Width and Height are CSS pixels.
type Frame struct {
	Width      float64 `json:"w"`
	Height     float64 `json:"h"`
	PixelRatio float64 `json:"dpr"`
	Ops        []Op    `json:"ops"`
	Texts      []Text  `json:"texts"`
	// Top is the layout's y at the frame's top, CSS px: a frame of a
	// layout taller than the panel that scrolls it draws the rows in
	// view (View.SeenTop), Height of them, and the page places the
	// canvas there.
	Top float64 `json:"top,omitempty"`
	// Sticky is the height of the layout's top band, its time axis, which
	// the page keeps in view at the top of the panel that scrolls the
	// tracks; 0 for none.
	Sticky float64 `json:"sticky,omitempty"`
	floats []float32
	// culls: the frame leaves out what falls wholly outside its rows.
	culls bool
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
	f.Width, f.Height, f.PixelRatio, f.Top, f.Sticky, f.culls = w, h, dpr, 0, 0, false
	f.Ops, f.Texts, f.floats = f.Ops[:0], f.Texts[:0], f.floats[:0]
}

// showRows has the frame draw the layout's rows [top, top+Height) alone.
func (f *Frame) showRows(top float64) {
	f.Top, f.culls = top, true
}

// shows says whether band b reaches into the frame's rows: a frame of
// the rows in view draws no other band's marks or labels.
func (f *Frame) shows(b Band) bool {
	const pad = 16 // a mark or a label's half height, and more
	return !f.culls || b.Y < f.Top+f.Height+pad && b.Y+b.Height > f.Top-pad
}

// add appends an operation over floats already collected elsewhere,
// without the items that fall wholly outside the frame's rows (the
// tracks of files scrolled out of view are most of a tall layout).
func (f *Frame) add(op Op, floats []float32) {
	start := len(f.floats)
	if f.culls {
		f.floats = f.appendShown(f.floats, op, floats)
	} else {
		f.floats = append(f.floats, floats...)
	}
	if len(f.floats) == start {
		return
	}
	op.Offset, op.Count = start, len(f.floats)-start
	f.Ops = append(f.Ops, op)
}

// appendShown appends to dst the items of op's floats src that reach
// into the frame's rows, a mark's or a stroke's size around them
// included; a clip is kept whole.
func (f *Frame) appendShown(dst []float32, op Op, src []float32) []float32 {
	pad := max(op.Size, 8)
	lo, hi := float32(f.Top)-pad, float32(f.Top+f.Height)+pad
	reaches := func(y0, y1 float32) bool { return min(y0, y1) < hi && max(y0, y1) > lo }
	switch op.Kind {
	case "rect":
		for i := 0; i+4 <= len(src); i += 4 {
			if reaches(src[i+1], src[i+1]+src[i+3]) {
				dst = append(dst, src[i:i+4]...)
			}
		}
	case "seg":
		for i := 0; i+4 <= len(src); i += 4 {
			if reaches(src[i+1], src[i+3]) {
				dst = append(dst, src[i:i+4]...)
			}
		}
	case "mark":
		for i := 0; i+2 <= len(src); i += 2 {
			if reaches(src[i+1], src[i+1]) {
				dst = append(dst, src[i:i+2]...)
			}
		}
	default:
		dst = append(dst, src...)
	}
	return dst
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
