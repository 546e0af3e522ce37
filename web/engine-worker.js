// The engine's dedicated worker (app/engine/worker, built as
// engine-worker.wasm beside this script): it reads the Files the page
// posts, owns the model and answers the engine's questions
// (app/engine/client asks them). Every URL is relative to this script,
// so the site works under any base path. Questions that come before the
// wasm has started wait for it. When the Go program ends (out of memory,
// a fatal error) the page is told ({fatal}), and ends this worker.
"use strict";

importScripts(new URL("../wasm_exec.js", self.location).href);

// The site's file-reading worker, which the wasm starts for each file.
self.watchlensBlobWorkerURL = new URL("blobread.js", self.location).href;

// The Go runtime's last words on stderr ("fatal error: out of memory"),
// which the page is told with the end of the program.
let fatal = "";
{
  const write = globalThis.fs.writeSync;
  const decoder = new TextDecoder("utf-8");
  let line = "";
  globalThis.fs.writeSync = function (fd, buf) {
    if (fd === 2 && !fatal) {
      line += decoder.decode(buf);
      for (let nl = line.indexOf("\n"); nl >= 0 && !fatal; nl = line.indexOf("\n")) {
        if (/^(fatal error|panic): /.test(line)) fatal = line.slice(0, nl);
        line = line.slice(nl + 1);
      }
    }
    return write.apply(this, arguments);
  };
}

const go = new Go();
const started = WebAssembly.instantiateStreaming(fetch(new URL("engine-worker.wasm", self.location)), go.importObject).then((wasm) => {
  // go.run's promise settles once the program exits, which it does only
  // when it fails; by the time the call returns, main has set
  // watchlensWorkerMessage.
  go.run(wasm.instance).then(
    () => postMessage({ fatal: "the engine stopped" + (fatal ? ": " + fatal : "") }),
    (err) => postMessage({ fatal: "the engine stopped: " + err + (fatal ? ": " + fatal : "") }),
  );
});

onmessage = (e) => {
  started.then(
    () => self.watchlensWorkerMessage(e.data),
    (err) => postMessage({ id: e.data.id, q: e.data.q, error: "the engine's worker wasm failed to start: " + err }),
  );
};
