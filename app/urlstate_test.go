package app

import (
	"net/url"
	"reflect"
	"testing"
	"time"
)

func TestViewStateRoundTrip(t *testing.T) {
	v := defaultViewState()
	v.sample = "w4-then-resume.ts.http"
	v.params.CacheWindow = 90 * time.Second
	v.params.CacheCount = 500
	v.params.EtcdInterval = 10 * time.Second
	v.params.Delay = 1500 * time.Millisecond
	v.params.WatchCache = false
	v.params.Restarts = []int64{time.Date(2026, 11, 30, 0, 58, 0, 0, time.UTC).UnixNano()}
	v.from, v.to = 100, 200
	v.axisRV = true
	v.selected = 7

	q, err := url.ParseQuery(v.query().Encode())
	if err != nil {
		t.Fatal(err)
	}
	got := parseViewState(q)
	if !reflect.DeepEqual(got, v) {
		t.Errorf("round trip changed the view:\n got %+v\nwant %+v", got, v)
	}
}

func TestViewStateDefaultsStayOutOfTheURL(t *testing.T) {
	if q := defaultViewState().query().Encode(); q != "" {
		t.Errorf("the default view encodes as %q, want an empty query", q)
	}
}

func TestViewStateKeepsDefaultsForMalformedValues(t *testing.T) {
	q := url.Values{"w": {"soon"}, "n": {"-3"}, "from": {"9"}, "to": {"2"}, "sel": {"x"}, "restarts": {"yesterday"}}
	got := parseViewState(q)
	want := defaultViewState()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("malformed values changed the view:\n got %+v\nwant %+v", got, want)
	}
}
