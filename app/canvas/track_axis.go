package canvas

// axisBand is the axis band at the top: its tick labels are drawn with
// the grid lines that cross every band (see Build), and it answers with
// the axis value under the pointer.
type axisBand struct{}

func (axisBand) label() string      { return "" }
func (axisBand) height(int) float64 { return axisH }
func (axisBand) hit(c *Cache, v *View, p pointer) Hit {
	return Hit{Event: -1, Group: -1, Text: c.FormatPos(v.AxisRV, p.at)}
}
