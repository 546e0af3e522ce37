package synth

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
)

// Captures as real clusters send them. Pod's managedFields repeat from one
// event to the next, which a parser can skip by comparing bytes; on a real
// cluster they do not: the kubelet's entry names each pod's own IP, and
// workloads differ in containers, ports and labels. And most of a
// cluster's watch traffic is small objects: Leases renewed every 10 s by
// each holder, and Events, each one new.

// workloads is how many Deployments the realistic pods belong to.
const workloads = 97

// RealisticPod writes the i-th event of a pod watch whose managedFields
// never repeat from one event to the next, and differ between objects as
// a real cluster's do: events cycle over 3000 pods of 97 workloads, each
// workload with its own containers, ports, labels and status conditions,
// each pod with its own IP and its own creation (the controller
// manager's entry is at it), every update at its own second (the
// kubelet's), the pods of every fifth workload annotated by a third
// manager after their first update, and those of every seventh labelled
// by a fourth through server-side apply (operation "Apply").
func RealisticPod(b *bytes.Buffer, i int) {
	round := i / 3000
	typ := [...]string{"ADDED", "MODIFIED", "MODIFIED", "MODIFIED", "DELETED"}[round%5]
	obj := i % 3000
	w := obj % workloads
	t := at(i)
	// The pod was created by its ADDED, the first of its five rounds.
	created := round/5*5*3000 + obj
	name := fmt.Sprintf("svc-%d-6d8f%05d", w, obj)
	app := fmt.Sprintf("svc-%d", w)
	tier := [...]string{"frontend", "backend", "cache", "batch"}[w%4]
	ip := fmt.Sprintf("10.244.%d.%d", obj/250, 2+obj%250)
	containers := 1 + w%3
	annotated := w%5 == 0 && round%5 >= 1
	// Every seventh workload's pods are labelled by a policy agent
	// through server-side apply, a second after their creation.
	applied := w%7 == 3
	policyLabel := ""
	if applied {
		policyLabel = `,"policy.example.com/checked":"true"`
	}
	fmt.Fprintf(b, `{"type":%q,"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,"generateName":"svc-%d-6d8f","namespace":"team-%d","uid":"%08x-%04x-4ec7-b3fb-ba14635341da","resourceVersion":"%d","generation":1,"creationTimestamp":%q,"labels":{"app":%q,"pod-template-hash":"6d8f%02d","tier":%q,"version":"v%d"%s},`,
		typ, name, w, w%13, obj, round/5, 100000+i, at(created), app, w, tier, 1+w%5, policyLabel)
	if annotated {
		fmt.Fprintf(b, `"annotations":{"team.example.com/owner":"team-%d"},`, w%13)
	}
	fmt.Fprintf(b, `"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"%s-6d8f","uid":"1b2c3d4e-0000-4000-8000-%012d","controller":true,"blockOwnerDeletion":true}],`, app, w)
	// The controller manager's entry, written when it created the pod:
	// the workload's labels, owner and containers with their ports.
	fmt.Fprintf(b, `"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:tier":{},"f:version":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"1b2c3d4e-0000-4000-8000-%012d\"}":{}}},"f:spec":{"f:containers":{`, at(created), w)
	for c := range containers {
		if c > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, `"k:{\"name\":\"%s-c%d\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":%d,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}}}`, app, c, 8000+w*10+c)
	}
	b.WriteString(`},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}},`)
	if applied {
		fmt.Fprintf(b, `{"manager":"policy-agent","operation":"Apply","apiVersion":"v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:policy.example.com/checked":{}}}}},`, at(created+1))
	}
	// The kubelet's entry: this pod's IP and this update's second; a
	// newer kubelet (every other workload's node) also owns the
	// PodReadyToStartContainers condition.
	fmt.Fprintf(b, `{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},`, t)
	if w%2 == 1 {
		b.WriteString(`"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},`)
	}
	fmt.Fprintf(b, `"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"%s\"}":{".":{},"f:ip":{}}},"f:startTime":{}}},"subresource":"status"}`, ip)
	if annotated {
		// Annotated by hand after the pod's first update.
		fmt.Fprintf(b, `,{"manager":"kubectl-annotate","operation":"Update","apiVersion":"v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:team.example.com/owner":{}}}}}`, at(created+3000))
	}
	b.WriteString(`]},`)
	b.WriteString(`"spec":{"containers":[`)
	for c := range containers {
		if c > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, `{"name":"%s-c%d","image":"registry.example.com/team/%s:1.%d.0","ports":[{"containerPort":%d,"protocol":"TCP"}],"env":[`, app, c, app, w, 8000+w*10+c)
		for k := range 4 + (w+c)%9 {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, `{"name":"%s_SETTING_%d","value":"value-%d-%d"}`, tier, k, w, k*i)
		}
		b.WriteString(`],"resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}`)
	}
	fmt.Fprintf(b, `],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","serviceAccountName":"default","nodeName":"node-%d","securityContext":{},"schedulerName":"default-scheduler","priority":0,"enableServiceLinks":true},`, obj%40)
	fmt.Fprintf(b, `"status":{"phase":"Running","conditions":[{"type":"Initialized","status":"True","lastProbeTime":null,"lastTransitionTime":%q},{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":%q},{"type":"ContainersReady","status":"True","lastProbeTime":null,"lastTransitionTime":%q}],"hostIP":"172.18.0.%d","podIP":%q,"podIPs":[{"ip":%q}],"startTime":%q,"qosClass":"Burstable"}}}`,
		t, t, t, 2+obj%40, ip, ip, t)
	b.WriteByte('\n')
}

// Lease writes the i-th event of a Lease watch (kube-node-lease and
// leader election): 3000 holders each renew every 10 s, so every event is
// a MODIFIED of a small object whose renewTime and managedFields time
// move.
func Lease(b *bytes.Buffer, i int) {
	holder := i % 3000
	// 3000 renewals every 10 s: 300 a second.
	t := time.Unix(start+int64(i/300), int64(i%300)*3333_000).UTC().Format("2006-01-02T15:04:05.000000Z07:00")
	fmt.Fprintf(b, `{"type":"MODIFIED","object":{"kind":"Lease","apiVersion":"coordination.k8s.io/v1","metadata":{"name":"node-%04d","namespace":"kube-node-lease","uid":"%08x-7f1e-4b4c-9a34-2f5a6b7c8d9e","resourceVersion":"%d","creationTimestamp":"2026-11-29T08:00:00Z","ownerReferences":[{"apiVersion":"v1","kind":"Node","name":"node-%04d","uid":"%08x-0000-4000-8000-000000000000"}],"managedFields":[{"manager":"kubelet","operation":"Update","apiVersion":"coordination.k8s.io/v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:ownerReferences":{".":{},"k:{\"uid\":\"%08x-0000-4000-8000-000000000000\"}":{}}},"f:spec":{"f:holderIdentity":{},"f:leaseDurationSeconds":{},"f:renewTime":{}}}}]},"spec":{"holderIdentity":"node-%04d","leaseDurationSeconds":40,"renewTime":%q}}}`+"\n",
		holder, holder, 500000+i, holder, holder, t, holder, holder, t)
}

// Event writes the i-th event of a core/v1 Event watch: each one a new
// object (ADDED), with its own name, involved object and message.
func Event(b *bytes.Buffer, i int) {
	t := at(i / 50)
	pod := fmt.Sprintf("svc-%d-6d8f%05d", i%workloads, i%3000)
	reason := [...]string{"Scheduled", "Pulling", "Pulled", "Created", "Started", "Killing", "BackOff", "Unhealthy"}[i%8]
	fmt.Fprintf(b, `{"type":"ADDED","object":{"kind":"Event","apiVersion":"v1","metadata":{"name":"%s.%016x","namespace":"team-%d","uid":"%08x-91ab-4cde-8f01-23456789abcd","resourceVersion":"%d","creationTimestamp":%q,"managedFields":[{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":%q,"fieldsType":"FieldsV1","fieldsV1":{"f:count":{},"f:firstTimestamp":{},"f:involvedObject":{},"f:lastTimestamp":{},"f:message":{},"f:reason":{},"f:reportingComponent":{},"f:reportingInstance":{},"f:source":{"f:component":{},"f:host":{}},"f:type":{}}}]},"involvedObject":{"kind":"Pod","namespace":"team-%d","name":%q,"uid":"%08x-4ec7-b3fb-ba14635341da","apiVersion":"v1","resourceVersion":"%d","fieldPath":"spec.containers{app}"},"reason":%q,"message":"%s pod %s on node-%d (attempt %d)","source":{"component":"kubelet","host":"node-%d"},"firstTimestamp":%q,"lastTimestamp":%q,"count":1,"type":"Normal","eventTime":null,"reportingComponent":"kubelet","reportingInstance":"node-%d"}}`+"\n",
		pod, i, i%workloads%13, i, 900000+i, t, t, i%workloads%13, pod, i%3000, 100000+i, reason, reason, pod, i%40, i%7, i%40, t, t, i%40)
}

// distinctManagers are the managers of DistinctObject's objects, with
// the operation each writes.
var distinctManagers = [...]struct{ name, op string }{
	{"kubectl-client-side-apply", "Update"}, {"helm", "Update"}, {"argocd-controller", "Apply"}, {"kube-controller-manager", "Update"},
}

// DistinctObject writes the i-th event of a watch in which every event
// is a new small object (about 500 bytes), as a capture of millions of
// distinct objects is: a ConfigMap ADDED with its own name, uid and
// data, whose one managedFields entry differs between objects in its
// manager, operation, time and fields. It is written without fmt, so
// that tens of millions take seconds.
func DistinctObject(b *bytes.Buffer, i int) {
	var num [20]byte
	hex := func(v uint64, width int) {
		s := strconv.AppendUint(num[:0], v, 16)
		for range width - len(s) {
			b.WriteByte('0')
		}
		b.Write(s)
	}
	dec := func(v int) { b.Write(strconv.AppendInt(num[:0], int64(v), 10)) }
	m := distinctManagers[i%len(distinctManagers)]
	t := at(i / 1000) // a thousand objects a second
	b.WriteString(`{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cfg-`)
	hex(uint64(i)*0x9e3779b1%(1<<32), 8)
	b.WriteString(`-`)
	dec(i)
	b.WriteString(`","namespace":"team-`)
	dec(i % 50)
	b.WriteString(`","uid":"`)
	hex(uint64(i), 8)
	b.WriteString(`-`)
	hex(uint64(i%65536), 4)
	b.WriteString(`-4ec7-b3fb-`)
	hex(uint64(i)*0x2545f491%(1<<48), 12)
	b.WriteString(`","resourceVersion":"`)
	dec(1_000_000 + i)
	b.WriteString(`","creationTimestamp":"`)
	b.WriteString(t)
	b.WriteString(`","labels":{"app":"app-`)
	dec(i % 97)
	b.WriteString(`"},"managedFields":[{"manager":"`)
	b.WriteString(m.name)
	b.WriteString(`","operation":"`)
	b.WriteString(m.op)
	b.WriteString(`","apiVersion":"v1","time":"`)
	b.WriteString(t)
	b.WriteString(`","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:key-`)
	dec(i % 7)
	b.WriteString(`":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}}]},"data":{"key-`)
	dec(i % 7)
	b.WriteString(`":"value-`)
	dec(i)
	b.WriteString(`"}}}` + "\n")
}
