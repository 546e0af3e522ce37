// A dedicated worker that hosts the engine (app/engine/worker, built into
// the site as /web/engine-worker.wasm by the browser tests that use it):
// it reads the Files the page posts, owns the model and answers the
// engine's questions; the page only draws the frames it is sent
// (web/timeline.js). Questions that come before the wasm has started wait
// for it.
"use strict";

importScripts("/wasm_exec.js");

// The site's file-reading worker, which the wasm starts for each file.
self.watchlensBlobWorkerURL = "/web/blobread.js";

const go = new Go();
const started = WebAssembly.instantiateStreaming(fetch("/web/engine-worker.wasm"), go.importObject).then((wasm) => {
  // go.run returns once the program exits, which it never does; by the
  // time the call returns, main has set watchlensWorkerMessage.
  go.run(wasm.instance);
});

onmessage = (e) => {
  started.then(
    () => self.watchlensWorkerMessage(e.data),
    (err) => postMessage({ id: e.data.id, q: e.data.q, error: "the engine's worker wasm failed to start: " + err }),
  );
};
