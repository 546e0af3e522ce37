package app

import (
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Splitter is the handle between the timeline and the dock: drag it, or
// focus it and use the arrow keys, to give one more room. It resizes the
// dock in place, without rendering the page, and tells the page the size
// the user settled on (actionDockSize). On a phone it is the grip of the
// dock's sheet: dragged up it raises the sheet, dragged down past its
// least size it lowers it to its tabs (actionDockLowered).
type Splitter struct {
	goapp.Compo
	Side bool // the dock is beside the timeline, not under it

	drag *splitDrag
	size float64 // the size last given to the dock, 0 before a drag moves
	// lower says the drag went down past the dock's least size, on a
	// phone: the sheet lowers to its tabs.
	lower bool
}

// splitDrag is a drag of the splitter in progress.
type splitDrag struct{ x, y, size float64 }

// actionDockSize: the user resized the dock; its value is the size, CSS
// px (float64).
const actionDockSize = "dock/size"

// actionDockStep: the user grew the dock from the keyboard; its value is
// by how much, CSS px (float64, negative to shrink).
const actionDockStep = "dock/step"

// minDockSize is the least size the user can give the dock, CSS px.
const minDockSize = 120

func (s *Splitter) Render() goapp.UI {
	orient := "horizontal"
	if s.Side {
		orient = "vertical"
	}
	return goapp.Div().ID("splitter").Class("splitter").Role("separator").TabIndex(0).
		Aria("orientation", orient).Aria("label", "Resize the panel (arrow keys)").
		On("pointerdown", s.onDown).
		On("pointermove", s.onMove).
		On("pointerup", s.onUp).
		OnKeyDown(s.onKey)
}

func (s *Splitter) onDown(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
	s.drag = &splitDrag{x: e.Get("clientX").Float(), y: e.Get("clientY").Float(), size: dockElementSize(s.Side)}
	s.size, s.lower = 0, false
}

func (s *Splitter) onMove(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	d := s.drag
	if d == nil {
		return
	}
	delta := d.y - e.Get("clientY").Float()
	if s.Side {
		delta = d.x - e.Get("clientX").Float()
	}
	w, _ := goapp.Window().Size()
	s.lower = !s.Side && w > 0 && w < narrowWindow && d.size+delta < minDockSize/2
	s.resizeDock(d.size + delta)
}

func (s *Splitter) onUp(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	if s.drag == nil {
		return
	}
	s.drag = nil
	if s.size == 0 {
		relayout(ctx) // a click: the dock keeps its size
		return
	}
	s.settle(ctx)
}

func (s *Splitter) onKey(ctx goapp.Context, e goapp.Event) {
	ctx.PreventUpdate()
	step := 0.0
	switch e.Get("key").String() {
	case "ArrowUp", "ArrowLeft":
		step = 40
	case "ArrowDown", "ArrowRight":
		step = -40
	default:
		return
	}
	e.PreventDefault()
	// The page steps the size it holds: presses come faster than it
	// renders, and a render of the size an earlier press gave would
	// undo a size read back from the screen in the meantime.
	ctx.NewActionWithValue(actionDockStep, step)
}

// resizeDock sets the dock's size in place, without rendering the page.
func (s *Splitter) resizeDock(size float64) {
	size = max(size, minDockSize)
	s.size = size
	if el := goapp.Window().GetElementByID("dock"); el.Truthy() {
		prop, v := dockPrefs{side: s.Side, size: size}.sizeStyle()
		el.Get("style").Set(prop, v)
		// A lowered sheet shows its body as it is dragged up.
		el.Get("classList").Call("remove", "lowered")
	}
}

// settle tells the page the size the dock was given, and has the
// timeline fit its new room.
func (s *Splitter) settle(ctx goapp.Context) {
	if s.lower {
		ctx.NewActionWithValue(actionDockLowered, true)
		return
	}
	ctx.NewActionWithValue(actionDockSize, s.size)
	relayout(ctx)
}
