// A dedicated worker that reads a Blob in slices for the page. Reading a
// large file with blob.arrayBuffer() on the page costs its main thread most
// of the read time, competing with the parser there; here that work is on
// this worker's thread, and each slice's buffer moves to the page without
// a copy.
//
// The page posts {blob, slice, ahead}: this reads `ahead` slices of up to
// `slice` bytes, then one more for each message after that, so that no
// more than `ahead` slices wait in memory however slow the parser is. A
// message may give back a used slice's buffer ({buf}), which a later
// slice is read into: a new buffer per slice makes V8 collect its heap
// several times a load for the memory outside it. Each reply is {at, buf, n} (n bytes of buf, none at the end of the
// blob) or {at, error}, with the read's gen. A worker that reached the end
// of one blob reads the next one the page posts (starting a worker for
// each of a recording's hundreds of small files leaves the page idle for
// much of its load); a read
// asked before that still replies, with its own blob's gen, which the page
// passes over.
"use strict";

let gen = 0; // the blob's read, as the page numbers them
let blob = null;
let reader = null; // the blob's byte stream, read into the buffers
let sliceSize = 0; // the largest slice
let size = 0; // the next slice's size
let next = 0;
let spare = []; // buffers given back
let chain = Promise.resolve(); // the reads, one after another, in order

async function fill(buf, want) {
  let n = 0;
  while (n < want) {
    const { value, done } = await reader.read(new Uint8Array(buf, n, want - n));
    if (done) break;
    buf = value.buffer;
    n += value.byteLength;
  }
  return [buf, n];
}

function readOne() {
  const g = gen;
  const at = next;
  // The parser finishes only after the last slice is in, so the slices
  // shrink towards the end (each at most half of what is left, down to
  // 1 MiB): little is left to parse once the last byte is read.
  const left = blob.size - at;
  const want = Math.min(size, left, Math.max(1 << 20, Math.ceil(left / 2)));
  next += want;
  size = Math.min(2 * size, sliceSize);
  chain = chain.then(async () => {
    if (want <= 0) {
      const buf = new ArrayBuffer(0);
      postMessage({ gen: g, at, buf, n: 0 }, [buf]);
      return;
    }
    let buf = spare.find((b) => b.byteLength >= want);
    if (buf) spare = spare.filter((b) => b !== buf);
    else buf = new ArrayBuffer(want);
    try {
      const [filled, n] = await fill(buf, want);
      postMessage({ gen: g, at, buf: filled, n }, [filled]);
    } catch (err) {
      postMessage({ gen: g, at, error: String(err) });
    }
  });
}

onmessage = (e) => {
  if (e.data.blob) {
    gen = e.data.gen || 0;
    blob = e.data.blob;
    reader = blob.stream().getReader({ mode: "byob" });
    sliceSize = e.data.slice;
    // The parser waits for the first slice, so the slices start small and
    // double up to the largest.
    size = Math.min(1 << 20, sliceSize);
    next = 0;
    spare = [];
    for (let i = 0; i < e.data.ahead; i++) readOne();
    return;
  }
  // The first slices are small: their buffers are too small to keep.
  if (e.data.buf && e.data.buf.byteLength >= size) spare.push(e.data.buf);
  readOne();
};
