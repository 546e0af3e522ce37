package app

import (
	"strings"
	"testing"
)

// TestPrettyJSONKeepsKeyOrder: the detail pane shows an event's keys in
// the order the server sent them, folded or not, and folds managedFields
// to a count of its entries.
func TestPrettyJSONKeepsKeyOrder(t *testing.T) {
	raw := []byte(`{"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"web","resourceVersion":"12345678901234567890","managedFields":[{"manager":"kubectl","time":"t1"},{"manager":"kube-controller-manager"}],"labels":{"z":"1","a":"<b>"}},"data":{"zeta":"1","alpha":"2"}}}`)
	keys := []string{`"type"`, `"object"`, `"kind"`, `"apiVersion"`, `"metadata"`, `"name"`, `"resourceVersion"`, `"managedFields"`, `"labels"`, `"z"`, `"a"`, `"data"`, `"zeta"`, `"alpha"`}
	for _, fold := range []bool{false, true} {
		got := string(prettyJSON(raw, fold))
		at := 0
		for _, k := range keys {
			i := strings.Index(got[at:], k+":")
			if i < 0 {
				t.Fatalf("fold %v: key %s missing or out of the server's order in\n%s", fold, k, got)
			}
			at += i + len(k)
		}
		if !strings.Contains(got, `"<b>"`) || !strings.Contains(got, `"12345678901234567890"`) {
			t.Errorf("fold %v: the values are not as the server sent them:\n%s", fold, got)
		}
		if folded := strings.Contains(got, `"managedFields": "(2 entries folded)"`); folded != fold {
			t.Errorf("fold %v: managedFields folded %v:\n%s", fold, folded, got)
		}
	}
	// An event without managedFields, or not JSON, comes back as it is.
	if got := string(prettyJSON([]byte(`{"b":1,"a":2}`), true)); got != "{\n  \"b\": 1,\n  \"a\": 2\n}" {
		t.Errorf("no managedFields: %q", got)
	}
	if got := string(prettyJSON([]byte(`{"b":`), true)); got != `{"b":` {
		t.Errorf("broken JSON: %q", got)
	}
}
