package timeline

import "slices"

// median is the middle of ds (the upper of the two middles), which it
// sorts; ds is not empty.
func median(ds []int64) int64 {
	slices.Sort(ds)
	return ds[len(ds)/2]
}
