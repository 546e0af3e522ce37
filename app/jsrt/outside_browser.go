//go:build !(js && wasm)

package jsrt

import "errors"

// Outside the browser there is no JavaScript. The page's packages build
// natively too, for go-app's server side and for their tests, which
// render the page but never load a file, await a promise or yield: these
// stand-ins keep that build whole, and each does nothing or says it
// cannot.

// Value stands for a JavaScript value, which is syscall/js's in the
// browser.
type Value struct{}

var errNoBrowser = errors.New("there is no browser here to run JavaScript")

func Await(Value) (Value, error) { return Value{}, errNoBrowser }

func FetchBlob(string) (Value, error) { return Value{}, errNoBrowser }

// BlobReader reads nothing outside the browser.
type BlobReader struct{ Pause func() }

func NewBlobReader(Value) *BlobReader { return &BlobReader{} }

func (*BlobReader) Read([]byte) (int, error) { return 0, errNoBrowser }

func (*BlobReader) Close() error { return nil }

func (*BlobReader) Start() {}

func PrepareReadingWorker() {}

func joinBlobs(Value) Value { return Value{} }

func sliceBlob(Value, int64) Value { return Value{} }

func Yield() {}

func YieldOnce() {}

func InTask(f func()) { f() }

func AfterNextPaint() {}

func Download(name, mime string, data []byte) {}

func SaveURL(name, href string) {}
