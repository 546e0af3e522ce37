package synth

import (
	"bytes"
	"fmt"
	"time"
)

// ShardedHour is a broad watch of one hour, n ConfigMap events at an even
// pace from 2026-11-30T00:00:00Z, each object labelled shard=sNNNN by its
// number: the first `shards` events add one object a shard, the rest
// modify the first half of them (the second half stays quiet), and a
// BOOKMARK comes every 16 667 events. Split by label=shard it is a fleet
// of `shards` virtual clients.
func ShardedHour(shards, n int) *bytes.Buffer {
	var buf bytes.Buffer
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	step := time.Hour / time.Duration(n)
	for i := range n {
		ts := t0.Add(time.Duration(i) * step).Format(time.RFC3339Nano)
		if i%16_667 == 16_666 {
			fmt.Fprintf(&buf, `%s {"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"%d"}}}`+"\n", ts, 1001+i)
			continue
		}
		typ, obj := "ADDED", i
		if i >= shards {
			typ, obj = "MODIFIED", i%(shards/2)
		}
		fmt.Fprintf(&buf, `%s {"type":"%s","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"obj-%d","namespace":"fleet","uid":"u-%d","resourceVersion":"%d","labels":{"shard":"s%04d"}}}}`+"\n",
			ts, typ, obj, obj, 1001+i, obj)
	}
	return &buf
}
