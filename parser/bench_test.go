package parser

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"unsafe"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/tidwall/gjson"
)

// benchPod writes one realistic pod watch event (about 7 KB) in the API
// server's key order: metadata first, with managedFields, then spec and
// status.
func benchPod(b *bytes.Buffer, i int) {
	typ := [...]string{"ADDED", "MODIFIED", "MODIFIED", "MODIFIED", "DELETED"}[i%5]
	t := fmt.Sprintf("2026-11-30T%02d:%02d:%02dZ", i/3600%24, i/60%60, i%60)
	// Events cycle over 3000 pods, as a busy cluster's watch does.
	obj := i % 3000
	name := fmt.Sprintf("web-%d-7f9c%05d", obj%97, obj)
	fmt.Fprintf(b, `{"type":%q,"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,"generateName":"web-%d-7f9c","namespace":"team-%d","uid":"%08x-4dd1-4ec7-b3fb-ba14635341da","resourceVersion":"%d","generation":1,"creationTimestamp":"2026-11-30T00:00:00Z","labels":{"app":"web","pod-template-hash":"7f9c","tier":"frontend"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-29T10:00:00Z"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7f9c","uid":"1b2c3d4e-0000-4000-8000-000000000001","controller":true,"blockOwnerDeletion":true}],`,
		typ, name, obj%97, obj%13, obj, 100000+i)
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

const benchSize = 100 << 20

var benchData = sync.OnceValue(func() [][]byte {
	var b bytes.Buffer
	b.Grow(benchSize + 16<<10)
	var lines [][]byte
	for i := 0; b.Len() < benchSize; i++ {
		start := b.Len()
		benchPod(&b, i)
		lines = append(lines, b.Bytes()[start:b.Len()])
	}
	return lines
})

func joinLines(lines [][]byte) []byte { return bytes.Join(lines, nil) }

// benchInputs builds each form of the capture on first use only, so that
// a profile of one benchmark is not mostly the making of the others.
var benchInputs = map[string]func() []byte{
	"ndjson": sync.OnceValue(func() []byte { return joinLines(benchData()) }),
	"sorted": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		for _, l := range benchData() {
			var v map[string]any
			json.Unmarshal(l, &v)
			// kubectl's order: the type, then the object with sorted keys
			// (maps marshal sorted).
			s, _ := json.Marshal(v["object"])
			fmt.Fprintf(&out, "{\"type\":%q,\"object\":%s}\n", v["type"], s)
		}
		return out.Bytes()
	}),
	"pretty": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		for _, l := range benchData() {
			json.Indent(&out, l[:len(l)-1], "", "    ")
			out.WriteByte('\n')
		}
		return out.Bytes()
	}),
	"chunked": benchChunked,
	"ts-chunked": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		for i, l := range bytes.SplitAfter(benchChunked(), []byte("\n")) {
			fmt.Fprintf(&out, "2026-11-30T00:54:%02d.%09dZ %s", i/1000%60, i, l)
		}
		return out.Bytes()
	}),
	"gzip": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&out, gzip.DefaultCompression)
		zw.Write(benchChunked())
		zw.Close()
		return out.Bytes()
	}),
	"zstd": sync.OnceValue(func() []byte {
		var out bytes.Buffer
		zw, _ := zstd.NewWriter(&out)
		zw.Write(benchChunked())
		zw.Close()
		return out.Bytes()
	}),
}

var benchChunked = sync.OnceValue(func() []byte {
	out := bytes.NewBufferString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
	for _, l := range benchData() {
		fmt.Fprintf(out, "%x\r\n%s\r\n", len(l), l)
	}
	out.WriteString("0\r\n\r\n")
	return out.Bytes()
})

func benchRead(b *testing.B, name string) {
	in := benchInputs[name]()
	want := len(benchData())
	size := len(in)
	if name == "gzip" || name == "zstd" {
		size = len(benchChunked())
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rd := NewReader(bytes.NewReader(in), Options{})
		n := 0
		for rd.Next() {
			n++
		}
		if n != want || len(rd.Diagnostics()) > 0 {
			b.Fatalf("%d events, want %d; %v", n, want, rd.Diagnostics())
		}
	}
	b.ReportMetric(float64(unsafe.Sizeof(Event{})), "B/event-record")
}

func BenchmarkReadNDJSON(b *testing.B)         { benchRead(b, "ndjson") }
func BenchmarkReadSortedKeys(b *testing.B)     { benchRead(b, "sorted") }
func BenchmarkReadPretty(b *testing.B)         { benchRead(b, "pretty") }
func BenchmarkReadChunked(b *testing.B)        { benchRead(b, "chunked") }
func BenchmarkReadTimestamped(b *testing.B)    { benchRead(b, "ts-chunked") }
func BenchmarkReadGzipChunked(b *testing.B)    { benchRead(b, "gzip") }
func BenchmarkReadZstdChunked(b *testing.B)    { benchRead(b, "zstd") }
func BenchmarkDecompressGzip(b *testing.B)     { benchDecompress(b, "gzip") }
func BenchmarkDecompressZstd(b *testing.B)     { benchDecompress(b, "zstd") }
func BenchmarkNaiveGJSONBaseline(b *testing.B) { benchNaive(b) }

// benchDecompress is klauspost's decompression alone, the floor for the
// compressed reads.
func benchDecompress(b *testing.B, name string) {
	in := benchInputs[name]()
	b.SetBytes(int64(len(benchChunked())))
	buf := make([]byte, 256<<10)
	b.ResetTimer()
	for range b.N {
		var r io.Reader
		if name == "gzip" {
			r, _ = gzip.NewReader(bytes.NewReader(in))
		} else {
			zr, _ := zstd.NewReader(bytes.NewReader(in), zstd.WithDecoderConcurrency(1))
			defer zr.Close()
			r = zr
		}
		for {
			if _, err := r.Read(buf); err != nil {
				break
			}
		}
	}
}

// benchNaive is the obvious way: the whole file in memory, split in lines,
// gjson.GetBytes per field.
func benchNaive(b *testing.B) {
	in := benchInputs["ndjson"]()
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for range b.N {
		n := 0
		sc := bufio.NewScanner(bytes.NewReader(in))
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			l := sc.Bytes()
			var e Event
			e.Type = ParseEventType(gjson.GetBytes(l, "type").String())
			e.Kind = gjson.GetBytes(l, "object.kind").String()
			e.APIVersion = gjson.GetBytes(l, "object.apiVersion").String()
			e.Namespace = gjson.GetBytes(l, "object.metadata.namespace").String()
			e.Name = gjson.GetBytes(l, "object.metadata.name").String()
			e.UID = gjson.GetBytes(l, "object.metadata.uid").String()
			e.RV = gjson.GetBytes(l, "object.metadata.resourceVersion").String()
			e.InitialEventsEnd = gjson.GetBytes(l, `object.metadata.annotations.k8s\.io/initial-events-end`).String() == "true"
			for _, t := range gjson.GetBytes(l, "object.metadata.managedFields.#.time").Array() {
				if ns, ok := parseTime(t.String()); ok && ns > e.Estimated {
					e.Estimated = ns
				}
			}
			n++
		}
		if n != len(benchData()) {
			b.Fatalf("%d events", n)
		}
	}
}
