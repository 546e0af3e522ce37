package timeline

// minCostAssignment gives each row of cost a column of its own so that
// the sum of the costs given is least (the Hungarian method with
// potentials, O(rows² × columns)); a row gets -1 when there are fewer
// columns than rows and it is one left over. Greedy choice would let
// the first client of a shutdown take another's audit client, whose
// ends are as near: only the whole assignment tells them apart.
func minCostAssignment(cost [][]int64) []int {
	n := len(cost)
	if n == 0 {
		return nil
	}
	m := len(cost[0])
	// Columns past m are "none", dearer than any pair, so that every
	// row can have one.
	cols := max(m, n)
	at := func(i, j int) int64 {
		if j < m {
			return cost[i][j]
		}
		return 4 * klogNoJoin
	}
	const inf = int64(1) << 62
	u, v := make([]int64, n+1), make([]int64, cols+1)
	p, way := make([]int, cols+1), make([]int, cols+1) // p[j]: the row (1-based) given column j
	minv, used := make([]int64, cols+1), make([]bool, cols+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		for p[j0] != 0 {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= cols; j++ {
				if used[j] {
					continue
				}
				if c := at(i0-1, j-1) - u[i0] - v[j]; c < minv[j] {
					minv[j], way[j] = c, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= cols; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	out := make([]int, n)
	for j := 1; j <= cols; j++ {
		if p[j] != 0 {
			out[p[j]-1] = j - 1
			if j > m {
				out[p[j]-1] = -1
			}
		}
	}
	return out
}

// untangle exchanges the columns of two rows of an assignment where the
// exchange costs at most klogSwapMargin more and lowers the spread:
// samples-watchlist's clients with client-go's default User-Agent, whose
// requests all ended as one server shut down, are as near each of the
// others' audit-log clients, and only the order in which the server
// ended their watches (the order in which the clients saw them end)
// tells which is which. Each exchange lowers the total spread, so it
// ends.
func untangle(cost [][]int64, spread [][]float64, assign []int) []int {
	for changed := true; changed; {
		changed = false
		for i, j := range assign {
			for i2, j2 := range assign {
				if i2 == i || j < 0 || j2 < 0 || cost[i][j2] >= klogNoJoin || cost[i2][j] >= klogNoJoin {
					continue
				}
				if cost[i][j2]+cost[i2][j] <= cost[i][j]+cost[i2][j2]+klogSwapMargin &&
					spread[i][j2]+spread[i2][j] < spread[i][j]+spread[i2][j2] {
					assign[i], assign[i2] = j2, j
					j = j2
					changed = true
				}
			}
		}
	}
	return assign
}
