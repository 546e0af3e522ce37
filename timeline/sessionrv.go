package timeline

import "strconv"

// NoRV is the resourceVersion of a step with no cursor (Steps.RV), and
// serves as "no resourceVersion" wherever a uint64 stands for one.
const NoRV = unsetRV

// RVRange is the first and last resourceVersions the session carried, as
// numbers; ok is false when it carried none, or one that is not a number.
func (s Session) RVRange() (first, last uint64, ok bool) {
	first, errFirst := strconv.ParseUint(s.FirstRV, 10, 64)
	last, errLast := strconv.ParseUint(s.LastRV, 10, 64)
	return first, last, errFirst == nil && errLast == nil
}
