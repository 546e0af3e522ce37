// Package canvas renders a timeline onto the page's canvas, in pure Go:
// the frame it builds (operations over one buffer of coordinates, which
// web/timeline.js draws in one call), the palette, the scale and the
// viewport's range, the axis ticks, the rows and their groups, and, per
// track (one file each), its drawing, what lies under the pointer there and
// the tooltip that says it. Build and HitTest name no band: they go
// through the kinds of bands.go, so a new band is a file. It imports neither go-app nor syscall/js, and
// is tested natively.
package canvas
