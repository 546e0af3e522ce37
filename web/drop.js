// Takes a drop of files in the browser's own event, before the Go
// program behind the page sees it. go-app runs an event's Go handler on
// its UI goroutine; when that goroutine is not free as the event comes,
// the handler runs after the event has ended: its preventDefault is too
// late, so the browser refuses the drop or opens the file itself in
// the tab, and the drop's files are no longer readable (a DataTransfer
// is readable only while its drop event runs). So this accepts every
// drag over the page and, as the drop begins, keeps what was dropped on
// the event as watchlensDropped, {files, entries}: the files, and the
// file-system entries of the items (a folder is read through its
// entry), which app/page.go's onDrop reads whenever it runs.
"use strict";
// Both dragenter and dragover are accepted: a drag whose target changes
// between the last dragover and the drop (the page re-rendered under it)
// enters the new target, and a dragenter left to its default makes the
// browser take the drop for one the page refuses (a dragleave, no drop).
for (const type of ["dragenter", "dragover"]) addEventListener(type, (e) => e.preventDefault(), true);
addEventListener(
  "drop",
  (e) => {
    e.preventDefault();
    const dt = e.dataTransfer;
    const files = dt ? [...dt.files] : [];
    const entries = [];
    for (const item of dt ? dt.items : []) {
      const entry = item.kind === "file" && item.webkitGetAsEntry ? item.webkitGetAsEntry() : null;
      if (entry) entries.push(entry);
    }
    e.watchlensDropped = { files, entries };
  },
  true,
);
