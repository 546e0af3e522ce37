package timeline

// Event is the table index of the event that set (or re-confirmed) step
// k: what a click on a cursor's step selects. It is -1 for a step that is
// no event of the table (a cursor set from a session's request, the head
// raised by an error's too-old RV).
func (s *Steps) Event(k int) int {
	if i := s.ev.at(k); i >= 0 {
		return int(i)
	}
	return -1
}
