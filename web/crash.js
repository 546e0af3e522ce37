// Says so when the Go program behind the page has stopped. Out of memory
// (wasm memory cannot grow past 4 GiB), or on a panic that nothing
// recovered, the Go runtime exits: the page still shows its last state,
// a progress bar that never moves, and every control is dead. This puts a
// message and a way out on the page instead.
//
// It runs before wasm_exec.js, which defines the Go class on globalThis:
// that assignment is caught here to watch each program the page runs.
"use strict";
(() => {
  // The Go runtime's last words on stderr: "fatal error: out of memory",
  // or a panic's message, before a dump of every goroutine.
  let fatal = "";
  let shown = false;

  // stopped says the program stopped for why; pageWorks says only the
  // engine's worker did (its capture ran out of memory), and the page
  // still works.
  function stopped(why, pageWorks) {
    if (shown) return;
    shown = !pageWorks;
    document.querySelectorAll("#crash").forEach((c) => c.remove());
    const oom = /out of memory|Maximum memory size exceeded/i.test(why);
    const box = document.createElement("div");
    box.id = "crash";
    box.className = "problem";
    box.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent = oom
      ? "watchlens ran out of memory reading this capture (a browser gives a page at most 4 GiB, often less). " +
        (pageWorks ? "" : "Nothing else works in this page until it is reloaded. ") +
        "For captures this large use the command line: watchlens analyze FILE."
      : "watchlens stopped on an error inside it (" + why + "). " +
        "Nothing else works in this page until it is reloaded.";
    const reload = document.createElement("button");
    reload.type = "button";
    reload.id = "crash-reload";
    reload.textContent = "Reload the page";
    // The capture that ended the program must not open again: the link
    // reloads the page without the view in its address.
    reload.addEventListener("click", () => location.assign(location.pathname));
    box.append(text, reload);
    // A stopped program leaves its progress bar standing: it goes. A
    // page that still works removes its own, and a node go-app renders
    // must not go behind its back: go-app would fail to remove it and
    // stop the page's program with it.
    if (!pageWorks) document.querySelectorAll("#progress").forEach((p) => p.remove());
    const notices = document.querySelector(".notices");
    if (notices) notices.prepend(box);
    else document.body.prepend(box);
    reload.focus();
  }

  // The engine's worker ran out of memory reading a capture: the page
  // says so as it does of its own, and still works.
  window.watchlensWorkerOutOfMemory = () => stopped("out of memory", true);

  let Go;
  Object.defineProperty(globalThis, "Go", {
    configurable: true,
    get: () => Go,
    set(cls) {
      Go = cls;
      const fs = globalThis.fs;
      if (fs && fs.writeSync) {
        const write = fs.writeSync;
        const decoder = new TextDecoder("utf-8");
        let line = ""; // stderr's line being written
        fs.writeSync = function (fd, buf) {
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
      const run = cls.prototype.run;
      cls.prototype.run = function (instance) {
        let code = 0;
        const exit = this.exit;
        this.exit = (c) => {
          code = c;
          exit.call(this, c);
        };
        // The app's main never returns in the browser: its run ending at
        // all means the program died.
        return run.call(this, instance).then(
          () => stopped("exit code " + code + (fatal ? ": " + fatal : "")),
          (err) => stopped(String(err)),
        );
      };
    },
  });

  // A trap in the wasm code (a RuntimeError) is thrown to whichever JS
  // called into Go: an event handler, a timer, a promise's callback.
  const dead = (err) =>
    err && (err instanceof WebAssembly.RuntimeError || /Go program has already exited/.test(String(err.message)));
  window.addEventListener("error", (e) => {
    if (dead(e.error)) stopped(String(e.error));
  });
  window.addEventListener("unhandledrejection", (e) => {
    if (dead(e.reason)) stopped(String(e.reason));
  });
})();
