// A dedicated worker that reads a Blob in slices for the page. Reading a
// large file with blob.arrayBuffer() on the page costs its main thread most
// of the read time, competing with the parser there; FileReaderSync here
// does that work on this worker's thread, and each slice's buffer moves to
// the page without a copy.
//
// The page posts {blob, slice, ahead}: this reads `ahead` slices of up to
// `slice` bytes, then one more for each message after that, so that no
// more than `ahead` slices wait in memory however slow the parser is. Each
// reply is {at, buf} (an ArrayBuffer, empty at the end of the blob) or
// {at, error}.
"use strict";

let blob = null;
let sliceSize = 0; // the largest slice
let size = 0; // the next slice's size
let next = 0;

function readOne() {
  const at = next;
  if (at >= blob.size) {
    const buf = new ArrayBuffer(0);
    postMessage({ at, buf }, [buf]);
    return;
  }
  const end = Math.min(at + size, blob.size);
  next = end;
  size = Math.min(2 * size, sliceSize);
  try {
    const buf = new FileReaderSync().readAsArrayBuffer(blob.slice(at, end));
    postMessage({ at, buf }, [buf]);
  } catch (err) {
    postMessage({ at, error: String(err) });
  }
}

onmessage = (e) => {
  if (e.data.blob) {
    blob = e.data.blob;
    sliceSize = e.data.slice;
    // The parser waits for the first slice, so the slices start small and
    // double up to the largest.
    size = Math.min(1 << 20, sliceSize);
    next = 0;
    for (let i = 0; i < e.data.ahead; i++) readOne();
    return;
  }
  readOne();
};
