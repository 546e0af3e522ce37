// Package synth generates large, realistic watch captures for benchmarks,
// where the real samples are too small to measure anything, and for the
// engine worker's warm-up, which must run the paths a real cluster's
// captures take and the samples do not (app/engine/worker/warmup.go).
// Tests of behaviour use the real captures in samples/, never these.
package synth

import (
	"bytes"
	"fmt"
	"time"
)

// start is the first second of every generated capture.
var start = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC).Unix()

// at is the time sec seconds after start, as the API server writes it
// (RFC 3339, UTC): a capture's clock moves forward however many events
// it holds, as a real one does, where hours modulo 24 jumped back a day
// every 86 400 seconds.
func at(sec int) string {
	return time.Unix(start+int64(sec), 0).UTC().Format(time.RFC3339)
}

// Pod writes the i-th event of a synthetic pod watch (about 7 KB, like a
// real pod with managedFields, spec and status) in the API server's key
// order: metadata first, then spec and status. Events cycle over 3000 pods
// and their resourceVersions rise by one each, as on a busy cluster.
func Pod(b *bytes.Buffer, i int) {
	// Each pod lives five rounds: ADDED, three MODIFIED, DELETED; the next
	// round re-creates it under a new uid, so the stream has no anomaly.
	round := i / 3000
	typ := [...]string{"ADDED", "MODIFIED", "MODIFIED", "MODIFIED", "DELETED"}[round%5]
	t := at(i)
	obj := i % 3000
	name := fmt.Sprintf("web-%d-7f9c%05d", obj%97, obj)
	fmt.Fprintf(b, `{"type":%q,"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,"generateName":"web-%d-7f9c","namespace":"team-%d","uid":"%08x-%04x-4ec7-b3fb-ba14635341da","resourceVersion":"%d","generation":1,"creationTimestamp":"2026-11-30T00:00:00Z","labels":{"app":"web","pod-template-hash":"7f9c","tier":"frontend"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-29T10:00:00Z"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7f9c","uid":"1b2c3d4e-0000-4000-8000-000000000001","controller":true,"blockOwnerDeletion":true}],`,
		typ, name, obj%97, obj%13, obj, round/5, 100000+i)
	b.WriteString(`"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-11-30T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:tier":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"1b2c3d4e-0000-4000-8000-000000000001\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"A\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}},`)
	fmt.Fprintf(b, `{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"10.244.1.7\"}":{".":{},"f:ip":{}}},"f:startTime":{}}},"subresource":"status"}]},`, t)
	b.WriteString(`"spec":{"volumes":[{"name":"kube-api-access-tsjgb","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],"defaultMode":420}}],"containers":[{"name":"app","image":"registry.example.com/team/web:1.42.0","ports":[{"containerPort":8080,"protocol":"TCP"}],"env":[`)
	for k := range 12 + i%8 {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, `{"name":"SETTING_%d","value":"value-%d-with-some-length \"quoted\" text"}`, k, k*i)
	}
	b.WriteString(`],"resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},"volumeMounts":[{"name":"kube-api-access-tsjgb","readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],"livenessProbe":{"httpGet":{"path":"/healthz","port":8080,"scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","serviceAccountName":"default","serviceAccount":"default","nodeName":"node-3","securityContext":{},"schedulerName":"default-scheduler","tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},`)
	fmt.Fprintf(b, `"status":{"phase":"Running","conditions":[{"type":"PodReadyToStartContainers","status":"True","lastProbeTime":null,"lastTransitionTime":%q},{"type":"Initialized","status":"True","lastProbeTime":null,"lastTransitionTime":%q},{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":%q},{"type":"ContainersReady","status":"True","lastProbeTime":null,"lastTransitionTime":%q},{"type":"PodScheduled","status":"True","lastProbeTime":null,"lastTransitionTime":%q}],"hostIP":"172.18.0.3","hostIPs":[{"ip":"172.18.0.3"}],"podIP":"10.244.1.7","podIPs":[{"ip":"10.244.1.7"}],"startTime":%q,"containerStatuses":[{"name":"app","state":{"running":{"startedAt":%q}},"lastState":{},"ready":true,"restartCount":0,"image":"registry.example.com/team/web:1.42.0","imageID":"registry.example.com/team/web@sha256:0f3c6b5a2d1e4f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a","containerID":"containerd://4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b","started":true,"volumeMounts":[{"name":"kube-api-access-tsjgb","mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","readOnly":true,"recursiveReadOnly":"Disabled"}]}],"qosClass":"Burstable"}}}`,
		t, t, t, t, t, t, t)
	b.WriteByte('\n')
}

// ConfigMap writes the i-th event of a synthetic ConfigMap watch (about
// 450 bytes: the small, frequent objects of a controller's leader election
// or state). Events cycle over 10 000 objects, each re-created after its
// DELETED like Pod's, and a BOOKMARK comes every 5000 events.
func ConfigMap(b *bytes.Buffer, i int) {
	if i%5000 == 4999 {
		fmt.Fprintf(b, `{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"%d","creationTimestamp":null}}}`+"\n", 100000+i)
		return
	}
	round := i / 10000
	typ := [...]string{"ADDED", "MODIFIED", "MODIFIED", "MODIFIED", "DELETED"}[round%5]
	obj := i % 10000
	t := at(i)
	fmt.Fprintf(b, `{"type":%q,"object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"state-%05d","namespace":"team-%d","uid":"%08x-%04x-4ec7-b3fb-ba14635341da","resourceVersion":"%d","creationTimestamp":"2026-11-30T00:00:00Z","labels":{"app":"state"},"managedFields":[{"manager":"controller","operation":"Update","apiVersion":"v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:holder":{}}}}]},"data":{"holder":"replica-%d"}}}`+"\n",
		typ, obj, obj%13, obj, round/5, 100000+i, t, i%3)
}

// Capture returns an NDJSON watch body of Pod events, of at least size
// bytes.
func Capture(size int) []byte { return CaptureOf(size, Pod) }

// CaptureOf returns an NDJSON watch body of at least size bytes, of the
// events that event writes.
func CaptureOf(size int, event func(*bytes.Buffer, int)) []byte {
	var b bytes.Buffer
	b.Grow(size + 16<<10)
	for i := 0; b.Len() < size; i++ {
		event(&b, i)
	}
	return b.Bytes()
}
