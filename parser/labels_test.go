package parser

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Event.Labels is sorted by key, as the API server and kubectl print a
// label set, in every form an event is read from: a key that begins as
// another ("app" and "app.kubernetes.io/name", '.' < '=') comes after it.
func TestLabelsSortedByKey(t *testing.T) {
	const want = "app=web,app.kubernetes.io/name=web,app.kubernetes.io/part-of=shop,pod-template-hash=6d8f77,tier=1"
	line := `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"ns","uid":"u-1","resourceVersion":"7",` +
		`"labels":{"tier":"1","app.kubernetes.io/part-of":"shop","pod-template-hash":"6d8f77","app.kubernetes.io/name":"web","app":"web"}}}}`
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(line), "", "  "); err != nil {
		t.Fatal(err)
	}
	for form, in := range map[string][]byte{
		"compact": []byte(line + "\n"),
		"pretty":  append(pretty.Bytes(), '\n'),
		"protobuf": pbFrameBytes("ADDED", configMap(pbMeta("name=web-1", "namespace=ns", "uid=u-1", "rv=7",
			"label=tier=1", "label=app.kubernetes.io/part-of=shop", "label=pod-template-hash=6d8f77", "label=app.kubernetes.io/name=web", "label=app=web"))),
	} {
		c := mustRead(t, in)
		if len(c.Events) != 1 || c.Events[0].Labels != want {
			t.Errorf("%s: events %+v, diagnostics %v; want labels %q", form, c.Events, c.Diagnostics, want)
		}
	}
}
