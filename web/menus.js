// Menus (details.menu: Open, More filters, Export) close as a menu does:
// on a press anywhere outside the one open, opening another menu among
// them, and on Escape, which gives the focus back to the menu's button
// when it was inside. A <details> alone stays open until its own summary
// is clicked again, and an open Export menu hung over the timeline.
"use strict";
addEventListener(
  "pointerdown",
  (e) => {
    for (const m of document.querySelectorAll("details.menu[open]")) {
      if (!m.contains(e.target)) m.open = false;
    }
  },
  true,
);
addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  for (const m of document.querySelectorAll("details.menu[open]")) {
    const focused = m.contains(document.activeElement);
    m.open = false;
    if (focused) m.querySelector("summary")?.focus();
  }
});
