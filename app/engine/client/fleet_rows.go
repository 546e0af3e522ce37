package client

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"

	"watchlens/app/engine"
)

// FleetRows are a fleet's rows (engine.Fleet.Rows) as they cross from the
// worker: the names' UTF-8 bytes one after another, the servers' the
// same, and four little-endian int32s a row (its name's length in bytes,
// its servers', its file, and 1 where it may mix two clients). These are
// read at once; a JSON list of 10 001 rows, read a row at a time
// (listOf), held the page's thread for several tasks (docs/performance.md,
// "1 M events split into 10 000 virtual clients").
type FleetRows struct {
	Names, Servers, Ints []byte
}

// fleetRowInts is how many int32s a row crosses as.
const fleetRowInts = 4

// WireFleetRows is rows as they cross. A name that is not valid UTF-8
// crosses as JSON carries it, each bad byte a U+FFFD, so that the fleet's
// names read as the files' list, which crosses as JSON, names them.
func WireFleetRows(rows []engine.FleetRow) FleetRows {
	var names, servers []byte
	ints := make([]byte, 0, 4*fleetRowInts*len(rows))
	for _, r := range rows {
		name, srv := validUTF8(r.Name), validUTF8(r.Servers)
		names = append(names, name...)
		servers = append(servers, srv...)
		mix := 0
		if r.MayMix {
			mix = 1
		}
		for _, n := range [fleetRowInts]int{len(name), len(srv), r.File, mix} {
			ints = binary.LittleEndian.AppendUint32(ints, uint32(int32(n)))
		}
	}
	return FleetRows{Names: names, Servers: servers, Ints: ints}
}

// validUTF8 is s with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as encoding/json writes it.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		b.WriteRune(r) // utf8.RuneError, U+FFFD, for a bad byte
		s = s[n:]
	}
	return b.String()
}

// Read is the rows that crossed as w, nil for none (as the engine
// answers no fleet); the names are parts of one string, as the servers
// are of another, not a string each.
func (w FleetRows) Read() ([]engine.FleetRow, error) {
	if len(w.Ints)%(4*fleetRowInts) != 0 {
		return nil, fmt.Errorf("the fleet's rows: %d bytes of figures, not %d a row", len(w.Ints), 4*fleetRowInts)
	}
	if len(w.Ints) == 0 && len(w.Names) == 0 && len(w.Servers) == 0 {
		return nil, nil
	}
	allNames, allServers := string(w.Names), string(w.Servers)
	rows := make([]engine.FleetRow, len(w.Ints)/(4*fleetRowInts))
	name, srv := 0, 0
	for i := range rows {
		var n [fleetRowInts]int
		for j := range n {
			n[j] = int(int32(binary.LittleEndian.Uint32(w.Ints[4*(fleetRowInts*i+j):])))
		}
		if n[0] < 0 || n[1] < 0 || name+n[0] > len(allNames) || srv+n[1] > len(allServers) {
			return nil, fmt.Errorf("the fleet's row %d runs past the names or servers that crossed", i)
		}
		rows[i] = engine.FleetRow{Name: allNames[name : name+n[0]], Servers: allServers[srv : srv+n[1]], File: n[2], MayMix: n[3] != 0}
		name, srv = name+n[0], srv+n[1]
	}
	if name != len(allNames) || srv != len(allServers) {
		return nil, fmt.Errorf("the fleet's rows leave %d bytes of names and %d of servers", len(allNames)-name, len(allServers)-srv)
	}
	return rows, nil
}
