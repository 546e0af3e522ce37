// A dedicated worker that loads a capture off the page's thread: the trial
// of issue #19's worker design (BenchmarkBrowserWorkerLoad serves it at
// /trial/, beside the site). It starts e2e/loadworker's wasm (built into
// the site as /web/loadworker.wasm), which reads the File the page posts,
// builds and analyses its timeline, builds the first frame for the page's
// canvas and posts it back; the page only draws it (web/timeline.js).
// Messages that come before the wasm has started wait for it.
"use strict";

importScripts("/wasm_exec.js");

// The site's file-reading worker, which the wasm starts for each file.
self.watchlensBlobWorkerURL = "/web/blobread.js";

const go = new Go();
const started = WebAssembly.instantiateStreaming(fetch("/web/loadworker.wasm"), go.importObject).then((wasm) => {
  // go.run returns once the program exits, which it never does; by the
  // time the call returns, main has set watchlensWorkerMessage.
  go.run(wasm.instance);
});

onmessage = (e) => {
  started.then(
    () => self.watchlensWorkerMessage(e.data),
    (err) => postMessage({ error: "the load worker's wasm failed to start: " + err }),
  );
};
