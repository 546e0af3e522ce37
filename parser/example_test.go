package parser_test

import (
	"fmt"
	"strings"

	"watchlens/parser"
)

func ExampleReader() {
	capture := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"69\r\n" + `{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"533"}}}` + "\n\r\n" +
		"0\r\n\r\n"
	r := parser.NewReader(strings.NewReader(capture), parser.Options{})
	for r.Next() {
		e := r.Event()
		fmt.Println(e.Type, e.Kind, e.RVNum, e.Offset, e.Length)
	}
	if err := r.Err(); err != nil {
		fmt.Println("read error:", err)
	}
	for _, s := range r.Sessions() {
		fmt.Println("session", s.Index, s.HTTPStatus, s.Events, "events")
	}
	fmt.Println(len(r.Diagnostics()), "problems")
	// Output:
	// BOOKMARK ConfigMap 533 51 104
	// session 0 200 1 events
	// 0 problems
}

func ExampleEventJSON() {
	// An event split over two chunks, each line with its arrival time.
	capture := "2026-11-30T00:54:44.361365371Z 13\r\n" +
		`2026-11-30T00:54:44.361365371Z {"type":"BOOKMARK",` + "\r\n" +
		"2026-11-30T00:54:44.361365371Z 2f\r\n" +
		`2026-11-30T00:54:45.000000000Z "object":{"metadata":{"resourceVersion":"7"}}}` + "\n" +
		"2026-11-30T00:54:45.000000000Z \r\n" +
		"2026-11-30T00:54:46.000000000Z 0\r\n" +
		"2026-11-30T00:54:46.000000000Z \r\n"
	c, _ := parser.ReadAll(strings.NewReader(capture), parser.Options{})
	e := c.Events[0]
	js, err := parser.EventJSON([]byte(capture[e.Offset : e.Offset+e.Length]))
	fmt.Println(string(js), err, len(c.Diagnostics))
	// Output:
	// {"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"7"}}} <nil> 0
}
