package timeline

// Known is step k's instant and value, with ok false when the step holds
// no value (a watch from "now", or a counterfactual bookmark whose RV no
// capture shows): what a consumer plotting the series skips.
func (s *Steps) Known(k int) (t int64, rv uint64, ok bool) {
	t, rv = s.Step(k)
	return t, rv, rv != unsetRV && rv != unknownRV
}
