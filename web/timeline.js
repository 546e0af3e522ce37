// watchlens timeline: draws one frame the Go side built (app/canvas/frame.go).
// Go hands over the whole frame in one call: a JSON list of batched
// operations and one Float32Array of their coordinates, so a frame of
// thousands of marks costs one crossing between Go and JS.
(function () {
  "use strict";

  // A colour is a CSS colour, or a custom property of the page ("--fg") so
  // the canvas follows the light or dark theme.
  function resolver(canvas) {
    const style = getComputedStyle(canvas);
    const cache = new Map();
    return function (c) {
      if (!c || !c.startsWith("--")) {
        return c || "#000";
      }
      if (!cache.has(c)) {
        cache.set(c, style.getPropertyValue(c).trim() || "#888");
      }
      return cache.get(c);
    };
  }

  const fonts = {
    "": "11px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    b: "600 11px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  };
  const aligns = { l: "left", r: "right", c: "center" };

  // fit cuts s, with an ellipsis, to the longest start that fits in w px
  // in the context's font: a label from the capture cannot run off the
  // canvas or over the plot, whatever its characters' widths.
  function fit(ctx, s, w) {
    if (ctx.measureText(s).width <= w) return s;
    const chars = Array.from(s);
    const start = (k) => chars.slice(0, k).join("") + "…";
    return start(longestFitting(chars.length, (k) => ctx.measureText(start(k)).width <= w));
  }

  // fitted is text t as drawn in the context's font (set to t's): cut to
  // fit its room (t.m), in its short form (t.h) when the whole does not
  // fit, and the width of what is drawn once a box needs it (w). A pan
  // draws the same labels in every frame, and measuring each again
  // (several measureText calls for one cut short) would be a good part of
  // a frame's drawing: the answers are kept by font, room and text.
  const fittedTexts = new Map();
  function fitted(ctx, t) {
    const key = (t.f || "") + "\u0000" + (t.m || 0) + "\u0000" + (t.h || "") + "\u0000" + t.s;
    let f = fittedTexts.get(key);
    if (f === undefined) {
      const short = t.h && ctx.measureText(t.s).width > t.m;
      const s = short ? t.h : t.s;
      f = { s: !t.m ? s : short ? fitShort(ctx, s, t.m) : fit(ctx, s, t.m), w: undefined };
      // A fleet of 10 000 clients has as many labels: the map is
      // bounded, and starts again when full.
      if (fittedTexts.size >= fittedKept) fittedTexts.clear();
      fittedTexts.set(key, f);
    }
    return f;
  }
  const fittedKept = 16384;

  // longestFitting is the largest k in [1, n] for which fits(k) holds,
  // by bisection, 0 when none does: fits holds up to some k and for none
  // after it.
  function longestFitting(n, fits) {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (fits(mid)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  // fitShort is fit for a label's short form (Text.Short), which says
  // what tells its row apart at its end, behind an ellipsis: what does
  // not fit is cut from just after that ellipsis, so that the end stays.
  function fitShort(ctx, s, w) {
    const cut = s.indexOf("…");
    if (cut < 0 || ctx.measureText(s).width <= w) return fit(ctx, s, w);
    const tail = Array.from(s.slice(cut + 1));
    const end = (k) => s.slice(0, cut + 1) + tail.slice(tail.length - k).join("");
    return end(longestFitting(tail.length, (k) => ctx.measureText(end(k)).width <= w));
  }

  // Each shape is a path around (x, y) of size s; all marks of one batch go
  // into one path and are filled or stroked once.
  const shapes = {
    tri(ctx, x, y, s) {
      const h = s * 0.5;
      ctx.moveTo(x, y - h);
      ctx.lineTo(x + h, y + h * 0.8);
      ctx.lineTo(x - h, y + h * 0.8);
      ctx.closePath();
    },
    tridown(ctx, x, y, s) {
      const h = s * 0.5;
      ctx.moveTo(x, y + h);
      ctx.lineTo(x + h, y - h * 0.8);
      ctx.lineTo(x - h, y - h * 0.8);
      ctx.closePath();
    },
    dot(ctx, x, y, s) {
      const r = s * 0.42;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    },
    diamond(ctx, x, y, s) {
      const h = s * 0.5;
      ctx.moveTo(x, y - h);
      ctx.lineTo(x + h, y);
      ctx.lineTo(x, y + h);
      ctx.lineTo(x - h, y);
      ctx.closePath();
    },
    square(ctx, x, y, s) {
      const h = s * 0.35;
      ctx.rect(x - h, y - h, 2 * h, 2 * h);
    },
    cross(ctx, x, y, s) {
      const h = s * 0.4;
      ctx.moveTo(x - h, y - h);
      ctx.lineTo(x + h, y + h);
      ctx.moveTo(x + h, y - h);
      ctx.lineTo(x - h, y + h);
    },
    ring(ctx, x, y, s) {
      const r = s * 0.5;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    },
  };
  const stroked = { cross: 2.2, ring: 2 };

  // inkMarks fills the marks of one shape traced in ctx's path, or strokes
  // them for the shapes that are lines.
  function inkMarks(ctx, shape, colour) {
    if (stroked[shape]) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = stroked[shape];
      ctx.stroke();
    } else {
      ctx.fillStyle = colour;
      ctx.fill();
    }
  }

  // The colours follow the light or dark theme, read when a frame is
  // drawn: when the system switches theme, each canvas on the page draws
  // its last frame again (the page itself may not render at all). A
  // frame whose buffer went back to the engine's worker (the page's
  // drawnAnswer, once the view drew another) has none left to draw.
  const lastFrames = new Map();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    for (const [canvas, frame] of [...lastFrames]) {
      if (canvas.isConnected && (frame[2] === 0 || frame[1].byteLength > 0)) window.watchlensDraw(canvas, ...frame);
    }
  });

  // The timeline's segments are vertical or horizontal (ticks, step lines,
  // lifetimes; app/canvas's tests hold it to that), so the solid
  // ones are filled as rectangles on whole device pixels, square-ended, in
  // one path, whose raster is a fraction of stroking them
  // (docs/performance.md, "What keeps a frame short"). The path fills the
  // union of its rectangles, so each is merged into the one before while
  // their union is a rectangle (one inside the other, or both in one
  // column or one row of pixels, touching): a cursor's step line over
  // thousands of changes, a few to a pixel, makes a few rectangles a
  // column rather than a call each, for the same pixels.
  function fillSegments(ctx, f, from, to, width, dpr, oy, colour) {
    const w = Math.max(1, Math.round(width * dpr));
    const lo = (v) => Math.round(v * dpr - w / 2);
    const hi = (v) => Math.round(v * dpr + w / 2);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, -oy);
    ctx.fillStyle = colour;
    ctx.beginPath();
    // The rectangle being merged; none while pw is 0 (each is at least
    // a pixel wide and high).
    let px = 0, py = 0, pw = 0, ph = 0;
    for (let i = from; i < to; i += 4) {
      const x1 = f[i], y1 = f[i + 1], x2 = f[i + 2], y2 = f[i + 3];
      let x, y, rw, rh;
      if (x1 === x2) {
        x = lo(x1);
        y = lo(Math.min(y1, y2));
        rw = w;
        rh = hi(Math.max(y1, y2)) - y;
      } else {
        x = lo(Math.min(x1, x2));
        y = lo(y1);
        rw = hi(Math.max(x1, x2)) - x;
        rh = w;
      }
      if (pw > 0) {
        if (x >= px && y >= py && x + rw <= px + pw && y + rh <= py + ph) continue;
        if (x === px && rw === pw && y <= py + ph && y + rh >= py) {
          const top = Math.min(y, py);
          ph = Math.max(y + rh, py + ph) - top;
          py = top;
          continue;
        }
        if (y === py && rh === ph && x <= px + pw && x + rw >= px) {
          const left = Math.min(x, px);
          pw = Math.max(x + rw, px + pw) - left;
          px = left;
          continue;
        }
        if (!(px >= x && py >= y && px + pw <= x + rw && py + ph <= y + rh)) {
          ctx.rect(px, py, pw, ph);
        }
      }
      px = x;
      py = y;
      pw = rw;
      ph = rh;
    }
    if (pw > 0) {
      ctx.rect(px, py, pw, ph);
    }
    ctx.fill();
    ctx.restore();
  }

  // A batch of many marks is stamped from a sprite instead of filled as
  // one path: copying a sprite's pixels into a buffer and blitting it is
  // far cheaper than Skia's raster of thousands of small circles
  // (docs/performance.md, "What keeps a frame short"). A few marks are
  // still drawn as paths, at their exact positions; stamped ones sit on
  // whole device pixels.
  const stampMin = 64;

  // sprite is one mark drawn on a small canvas, as pixels, with each
  // row's painted run so stamping skips the transparent corners.
  const sprites = new Map();
  function sprite(shape, size, dpr, colour) {
    const key = shape + "|" + size + "|" + dpr + "|" + colour;
    let sp = sprites.get(key);
    if (sp) {
      return sp;
    }
    const side = Math.ceil((size + 2 * (stroked[shape] || 0)) * dpr) + 2;
    const half = side >> 1;
    const c = document.createElement("canvas");
    c.width = c.height = side;
    const g = c.getContext("2d", { willReadFrequently: true });
    g.setTransform(dpr, 0, 0, dpr, half, half);
    g.beginPath();
    shapes[shape](g, 0, 0, size);
    inkMarks(g, shape, colour);
    const px = new Uint32Array(g.getImageData(0, 0, side, side).data.buffer);
    const runs = new Int16Array(2 * side);
    for (let y = 0; y < side; y++) {
      let a = side, b = 0;
      for (let x = 0; x < side; x++) {
        if (px[y * side + x] !== 0) {
          a = Math.min(a, x);
          b = x + 1;
        }
      }
      runs[2 * y] = a;
      runs[2 * y + 1] = b;
    }
    if (sprites.size > 64) {
      sprites.clear(); // themes and ratios come and go
    }
    sp = { side, half, px, runs };
    sprites.set(key, sp);
    return sp;
  }

  // The stamping buffer: an image at least as large as the marks' bounds,
  // and a canvas to blit it from. It only grows, in steps of 256 pixels,
  // so that frames of other sizes (the warm-up's, a resized window's)
  // reuse it: allocating it would lengthen a capture's first frame.
  let stamp = null;
  function stampBuffer(w, h) {
    if (!stamp || stamp.w < w || stamp.h < h) {
      const grow = (n) => Math.ceil(n / 256) * 256;
      w = grow(Math.max(w, stamp ? stamp.w : 0));
      h = grow(Math.max(h, stamp ? stamp.h : 0));
      const img = new ImageData(w, h);
      const canvas = document.createElement("canvas");
      canvas.width = w;
      canvas.height = h;
      stamp = { w, h, img, u: new Uint32Array(img.data.buffer), canvas, ctx: canvas.getContext("2d") };
    }
    return stamp;
  }

  // stampMarks draws the marks at f[from..to) (x, y pairs in CSS pixels)
  // by copying the sprite's pixels into the buffer, where overlapping
  // marks keep the more opaque pixel (the union of shapes of one colour),
  // then blitting the marks' bounds onto the canvas under its clip and
  // alpha. oy is the canvas's first row, device px of the layout (a
  // frame's top).
  function stampMarks(ctx, f, from, to, shape, size, dpr, oy, colour) {
    const sp = sprite(shape, size, dpr, colour);
    const W = ctx.canvas.width, H = ctx.canvas.height + oy;
    const side = sp.side, px = sp.px, runs = sp.runs;
    let x0 = W, y0 = H, x1 = 0, y1 = 0;
    for (let i = from; i < to; i += 2) {
      const x = Math.round(f[i] * dpr) - sp.half, y = Math.round(f[i + 1] * dpr) - sp.half;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x + side);
      y1 = Math.max(y1, y + side);
    }
    x0 = Math.max(x0, 0);
    y0 = Math.max(y0, oy);
    x1 = Math.min(x1, W);
    y1 = Math.min(y1, H);
    if (x0 >= x1 || y0 >= y1) {
      return;
    }
    // The buffer holds the bounds [x0, x1) x [y0, y1) at its top left.
    const bw = x1 - x0, bh = y1 - y0;
    const st = stampBuffer(bw, bh);
    const u = st.u, stride = st.w;
    for (let y = 0; y < bh; y++) {
      u.fill(0, y * stride, y * stride + bw);
    }
    for (let i = from; i < to; i += 2) {
      const x = Math.round(f[i] * dpr) - sp.half - x0, y = Math.round(f[i + 1] * dpr) - sp.half - y0;
      for (let r = Math.max(0, -y), rEnd = Math.min(side, bh - y); r < rEnd; r++) {
        const a = Math.max(runs[2 * r], -x), b = Math.min(runs[2 * r + 1], bw - x);
        let o = (y + r) * stride + x + a;
        for (let q = r * side + a, qEnd = r * side + b; q < qEnd; q++, o++) {
          const p = px[q];
          if (p >>> 24 > u[o] >>> 24) {
            u[o] = p;
          }
        }
      }
    }
    st.ctx.putImageData(st.img, 0, 0, 0, 0, bw, bh);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, -oy);
    ctx.drawImage(st.canvas, 0, 0, bw, bh, x0, y0, bw, bh);
    ctx.restore();
  }

  // watchlensRestoreScroll scrolls el to top: a view's scroll as the user
  // left it (app/fleet_view.go, showView). A view shown anew draws its
  // canvas once the engine answers, and until then may be too short to
  // scroll that far: the scroll is taken up again as its content grows,
  // until it is reached, the user scrolls, or a few seconds pass.
  window.watchlensRestoreScroll = function (el, top) {
    el.scrollTop = top;
    const content = el.firstElementChild;
    if (el.scrollTop >= top - 1 || !content || typeof ResizeObserver === "undefined") return;
    const gestures = ["wheel", "pointerdown", "touchstart", "keydown"];
    let timer = 0;
    const observer = new ResizeObserver(() => {
      el.scrollTop = top;
      if (el.scrollTop >= top - 1) stop();
    });
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
      for (const g of gestures) el.removeEventListener(g, stop);
    };
    for (const g of gestures) el.addEventListener(g, stop, { passive: true });
    timer = setTimeout(stop, 5000);
    observer.observe(content);
  };

  // watchlensShift(canvas, dx, x0, w): move the pixels of the plot, the
  // canvas's columns [x0, x0+w) in CSS px, dx CSS px sideways, and clear
  // the strip uncovered: a pan shows at once, before the engine's worker
  // answers its frame, which then replaces it. The shifts asked before
  // the next animation frame are made together in it, once, by whole
  // device pixels; a frame drawn meanwhile drops them, as it shows its
  // own view. Only the rows that show are moved: a canvas may be taller
  // than its scrolling panel (a frame's rows in view and a margin, or
  // all of a layout), and moving all of it (a copy of the whole canvas,
  // which drawing a canvas onto itself takes) held the page's thread
  // 69-84 ms at some moves of a pan over samples-fleet's 52 files, when
  // the canvas held all their tracks.
  const pendingShifts = new Map();
  window.watchlensShift = function (canvas, dx, x0, w) {
    const s = pendingShifts.get(canvas);
    if (s) {
      s.dx += dx;
      return;
    }
    pendingShifts.set(canvas, {dx, x0, w});
    requestAnimationFrame(() => {
      const s = pendingShifts.get(canvas);
      pendingShifts.delete(canvas);
      if (!s) return;
      shiftPlot(canvas, s.dx, s.x0, s.w);
    });
  };

  // shiftPlot moves the plot's pixels in the rows of the canvas that
  // show.
  function shiftPlot(canvas, dx, x0, w) {
    const dpr = canvas.clientWidth ? canvas.width / canvas.clientWidth : 1;
    const X0 = Math.round(x0 * dpr), W = Math.round(w * dpr), D = Math.round(dx * dpr);
    if (D === 0 || W <= 0) return;
    const [top, bottom] = shownRows(canvas, dpr);
    shiftRows(canvas, X0, W, D, top, bottom);
  }

  // shownRows are the canvas's rows [top, bottom), in device px, that
  // show: its box within the window and within each ancestor that clips
  // what overflows it (the panel that scrolls the tracks).
  function shownRows(canvas, dpr) {
    const r = canvas.getBoundingClientRect();
    let top = Math.max(r.top, 0), bottom = Math.min(r.bottom, window.innerHeight);
    for (let el = canvas.parentElement; el && el !== document.body; el = el.parentElement) {
      if (getComputedStyle(el).overflowY === "visible") continue;
      const c = el.getBoundingClientRect();
      top = Math.max(top, c.top);
      bottom = Math.min(bottom, c.bottom);
    }
    const y0 = Math.min(canvas.height, Math.max(0, Math.floor((top - r.top) * dpr)));
    const y1 = Math.min(canvas.height, Math.max(y0, Math.ceil((bottom - r.top) * dpr)));
    return [y0, y1];
  }

  // seenRows is the range of el's rows, CSS px from its top, that is in
  // view: within the window and within the nearest box that scrolls it
  // (the timeline's panel; the tracks scroll inside it).
  function seenRows(el) {
    const r = el.getBoundingClientRect();
    let top = -r.top, bottom = window.innerHeight - r.top;
    const p = scrollerOf(el);
    if (p) {
      const b = p.getBoundingClientRect();
      top = Math.max(top, b.top - r.top);
      bottom = Math.min(bottom, b.bottom - r.top);
    }
    return [top, bottom];
  }

  // scrollerOf is the nearest ancestor of el, below the body, whose
  // content scrolls (the timeline's panel, which the tracks scroll
  // inside), or null.
  function scrollerOf(el) {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowY;
      if (o === "auto" || o === "scroll") return p;
    }
    return null;
  }

  // watchlensSeenRows(el): seenRows of el, as an array of two.
  window.watchlensSeenRows = seenRows;

  // watchlensStage(canvas, out) measures in one call what a frame of
  // canvas needs of its stage, the canvas's parent. out, a Float64Array
  // of five, gets the stage's client width and height, the rows of it in
  // view (seenRows) and the device's pixel ratio. The canvas's data-room
  // notes the size ("WxH"): a change of the room reaches the views late
  // (relayout, then go-app's wait for the last of a burst of resizes),
  // and a tool that changed it waits until data-room is the stage's size
  // now, which says the view drew for its new room.
  window.watchlensStage = function (canvas, out) {
    const stage = canvas.parentElement;
    const w = stage.clientWidth, h = stage.clientHeight;
    const room = w + "x" + h;
    if (canvas.dataset.room !== room) canvas.dataset.room = room;
    const [top, bottom] = seenRows(stage);
    out[0] = w;
    out[1] = h;
    out[2] = top;
    out[3] = bottom;
    out[4] = window.devicePixelRatio;
  };

  // shiftRows moves the columns [X0, X0+W) of the rows [Y0, Y1), device
  // px, D px sideways through a canvas of its own (drawing a canvas
  // onto itself copies all of it first), and clears the strip left.
  function shiftRows(canvas, X0, W, D, Y0, Y1) {
    const H = Y1 - Y0;
    if (H <= 0) return;
    const ctx = canvas.getContext("2d");
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (Math.abs(D) < W) {
      const g = scratchOf(W, H).getContext("2d");
      g.clearRect(0, 0, W, H);
      g.drawImage(canvas, X0, Y0, W, H, 0, 0, W, H);
      ctx.clearRect(X0, Y0, W, H);
      ctx.beginPath();
      ctx.rect(X0, Y0, W, H);
      ctx.clip();
      ctx.drawImage(shiftScratch, 0, 0, W, H, X0 + D, Y0, W, H);
    } else {
      ctx.clearRect(X0, Y0, W, H);
    }
    ctx.restore();
  }

  // shiftScratch is the canvas shiftRows moves pixels through, as large
  // as the largest shift asked of it. The browser gives a canvas its
  // pixels at its first drawing, and this machine's memory is slow to
  // touch for the first time: the first shift of a visit held the page
  // 6-9 ms (the first move of a pan over 1 M events on the project's
  // 2-core machine, its slowest frame), the later ones 0.4-2 ms.
  // readyScratch has it drawn once in an idle moment after a frame,
  // before the user's first pan.
  let shiftScratch = null;
  function scratchOf(W, H) {
    if (!shiftScratch || shiftScratch.width < W || shiftScratch.height < H) {
      const old = shiftScratch;
      shiftScratch = document.createElement("canvas");
      shiftScratch.width = Math.max(W, old ? old.width : 0);
      shiftScratch.height = Math.max(H, old ? old.height : 0);
    }
    return shiftScratch;
  }

  // readyScratch readies shiftScratch, once the page is idle, for a
  // shift of canvas's rows, at pixel ratio dpr, as many as the window
  // shows. A canvas out of the page (a PNG's, the warm-up's) never pans.
  let scratchDue = false;
  function readyScratch(canvas, dpr) {
    const W = canvas.width, H = Math.min(canvas.height, Math.ceil(window.innerHeight * dpr));
    const ready = () => !!shiftScratch && shiftScratch.width >= W && shiftScratch.height >= H;
    if (scratchDue || H <= 0 || !canvas.isConnected || ready() || typeof requestIdleCallback !== "function") return;
    scratchDue = true;
    requestIdleCallback(() => {
      scratchDue = false;
      if (ready()) return;
      const g = scratchOf(W, H).getContext("2d");
      // Every pixel written, so that every page of them is touched.
      g.fillRect(0, 0, W, H);
      g.clearRect(0, 0, W, H);
    });
  }

  // sizeCanvas gives canvas the pixels of spec's frame, spec.w x spec.h
  // CSS px at the device's pixel ratio (sharp on HiDPI screens), places
  // it at the frame's top (the layout's rows it draws start there), and
  // says whether its pixels changed: a canvas resized is cleared.
  function sizeCanvas(canvas, spec) {
    const dpr = spec.dpr || 1;
    const w = Math.round(spec.w * dpr);
    const h = Math.round(spec.h * dpr);
    canvas.style.width = spec.w + "px";
    canvas.style.height = spec.h + "px";
    canvas.style.top = (spec.top || 0) + "px";
    if (canvas.width === w && canvas.height === h) return false;
    canvas.width = w;
    canvas.height = h;
    return true;
  }

  // watchlensReserve(canvas, specJSON): size the canvas for the frame of
  // specJSON ahead of its drawing, in a task of its own. The browser
  // allocates a canvas's pixels at the first drawing after a resize
  // (13-48 ms for a timeline's on the project's 2-core machine), which
  // made the frame that draws a new capture's taller timeline the page's
  // longest task.
  window.watchlensReserve = function (canvas, specJSON) {
    if (sizeCanvas(canvas, JSON.parse(specJSON))) {
      canvas.getContext("2d").clearRect(0, 0, 1, 1);
    }
  };

  // watchlensDraw(canvas, specJSON, bytes, nFloats): size the canvas for
  // the frame (sizeCanvas) and draw it. A frame draws the layout's rows
  // [spec.top, spec.top+spec.h) in the layout's coordinates: the labels
  // out of them are not drawn, and the canvas's panel tells it when
  // other rows scroll into view (watchSeen).
  window.watchlensDraw = function (canvas, specJSON, bytes, nFloats) {
    pendingShifts.delete(canvas);
    for (const c of lastFrames.keys()) {
      if (!c.isConnected) lastFrames.delete(c);
    }
    lastFrames.set(canvas, [specJSON, bytes, nFloats]);
    const spec = JSON.parse(specJSON);
    const dpr = spec.dpr || 1;
    const top = spec.top || 0, oy = Math.round(top * dpr);
    sizeCanvas(canvas, spec);
    watchSeen(canvas);
    const f = new Float32Array(bytes.buffer, bytes.byteOffset, nFloats);
    const color = resolver(canvas);
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, -oy);
    ctx.clearRect(0, top, spec.w, spec.h);
    // A label's half height and more: one whose row is out of the
    // frame's is not drawn.
    const textLo = top - 12, textHi = top + spec.h + 12;
    ctx.textBaseline = "middle";
    let clipped = false;
    for (const op of spec.ops) {
      const end = op.o + op.n;
      ctx.globalAlpha = op.a || 1;
      switch (op.k) {
        case "rect":
          ctx.fillStyle = color(op.c);
          ctx.beginPath();
          for (let i = op.o; i < end; i += 4) {
            ctx.rect(f[i], f[i + 1], f[i + 2], f[i + 3]);
          }
          ctx.fill();
          break;
        case "seg":
          if (!op.d) {
            fillSegments(ctx, f, op.o, end, op.z || 1, dpr, oy, color(op.c));
            break;
          }
          ctx.strokeStyle = color(op.c);
          ctx.lineWidth = op.z || 1;
          ctx.setLineDash([3, 3]);
          ctx.beginPath();
          for (let i = op.o; i < end; i += 4) {
            ctx.moveTo(f[i], f[i + 1]);
            ctx.lineTo(f[i + 2], f[i + 3]);
          }
          ctx.stroke();
          ctx.setLineDash([]);
          break;
        case "mark": {
          const name = Object.hasOwn(shapes, op.s) ? op.s : "dot";
          const s = op.z || 8;
          if (op.n >= 2 * stampMin) {
            stampMarks(ctx, f, op.o, end, name, s, dpr, oy, color(op.c));
            break;
          }
          ctx.beginPath();
          for (let i = op.o; i < end; i += 2) {
            shapes[name](ctx, f[i], f[i + 1], s);
          }
          inkMarks(ctx, name, color(op.c));
          break;
        }
        case "clip":
          if (clipped) {
            ctx.restore();
          }
          ctx.save();
          ctx.beginPath();
          ctx.rect(f[op.o], f[op.o + 1], f[op.o + 2], f[op.o + 3]);
          ctx.clip();
          clipped = true;
          break;
        case "unclip":
          if (clipped) {
            ctx.restore();
            clipped = false;
          }
          break;
        case "text":
          for (let i = op.o; i < op.o + op.n; i++) {
            const t = spec.texts[i];
            if (t.y >= textLo && t.y <= textHi) drawText(ctx, t, color);
          }
          break;
      }
    }
    if (clipped) {
      ctx.restore();
    }
    ctx.globalAlpha = 1;
    drawAxis(canvas, spec, color);
    readyScratch(canvas, dpr);
  };

  // drawText draws label t (app/canvas's Text) in its font, colour and
  // room.
  function drawText(ctx, t, color) {
    ctx.font = fonts[t.f || ""];
    ctx.textAlign = aligns[t.a || "l"];
    ctx.fillStyle = color(t.c);
    const f = fitted(ctx, t);
    const shown = f.s;
    if (t.k) {
      // A label on a box of colour t.k, sized to the text drawn: over
      // the plot, the page's background, so that what it covers reads
      // as covered, not as a paler mark.
      if (f.w === undefined) f.w = ctx.measureText(shown).width;
      const w = f.w;
      const x = t.a === "r" ? t.x - w : t.a === "c" ? t.x - w / 2 : t.x;
      ctx.fillStyle = color(t.k);
      ctx.fillRect(x - 2, t.y - 6.5, w + 4, 13);
      ctx.fillStyle = color(t.c);
    }
    ctx.fillText(shown, t.x, t.y);
  }

  // The time axis kept in view: the labels in a frame's top spec.sticky
  // CSS px, drawn on the panel's background in the canvas.tl-axis that
  // follows the timeline's canvas on its stage, which CSS keeps at the
  // top of the panel that scrolls the tracks (position: sticky). A frame
  // of the rows in view has no axis of its own once they are below it,
  // and scrolled, the tracks are read with the times above them. The
  // copy shows, and is drawn, only while the stage's top is scrolled out
  // of the panel (watchSeen says when): unscrolled, the canvas's own axis
  // is in view, and a frame costs nothing more.
  const axes = new WeakMap(); // canvas -> {spec, color, stuck}, from its first frame (watchSeen)

  function axisOf(canvas) {
    let st = axes.get(canvas);
    if (!st) {
      st = {spec: null, color: null, stuck: false};
      axes.set(canvas, st);
    }
    return st;
  }

  // drawAxis keeps the frame's axis for its copy, and draws the copy if
  // it shows.
  function drawAxis(canvas, spec, color) {
    const st = axisOf(canvas);
    st.spec = spec;
    st.color = color;
    paintAxis(canvas, st);
  }

  // paintAxis draws the copy of the axis of canvas's last frame, or
  // hides it.
  function paintAxis(canvas, st) {
    const axis = canvas.nextElementSibling;
    if (!axis || !axis.classList.contains("tl-axis")) return; // a picture's canvas, say
    const spec = st.spec, h = spec ? spec.sticky || 0 : 0;
    if (!h || !st.stuck) {
      axis.style.display = "none";
      return;
    }
    const dpr = spec.dpr || 1, color = st.color;
    const W = canvas.width, H = Math.round(h * dpr);
    if (axis.width !== W || axis.height !== H) {
      axis.width = W;
      axis.height = H;
      axis.style.width = spec.w + "px";
      axis.style.height = h + "px";
    }
    axis.style.display = "block";
    const ctx = axis.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = color("--panel");
    ctx.fillRect(0, 0, spec.w, h);
    ctx.textBaseline = "middle";
    for (const op of spec.ops) {
      if (op.k !== "text") continue;
      for (let i = op.o; i < op.o + op.n; i++) {
        const t = spec.texts[i];
        if (t.y < h) drawText(ctx, t, color);
      }
    }
  }

  // watchSeen has the panel that scrolls canvas (its nearest ancestor
  // that scrolls) tell it, by a "watchlensseen" event, once an animation
  // frame while it scrolls: a frame draws the rows in view (and a
  // margin), and the page asks the frame of the rows scrolled to
  // (app/timeline_view.go, onSeen). Until it comes, the canvas scrolls
  // with its panel, and the margin shows.
  function watchSeen(canvas) {
    if (axes.has(canvas)) return;
    const st = axisOf(canvas);
    const scroller = scrollerOf(canvas);
    if (!scroller) return;
    // stuck says whether the stage's top is scrolled out of the panel.
    const stuck = () => canvas.parentElement.getBoundingClientRect().top < scroller.getBoundingClientRect().top + scroller.clientTop - 0.5;
    st.stuck = stuck();
    let due = false;
    const onScroll = () => {
      if (!canvas.isConnected) {
        // The view was closed: its canvas, and this, go.
        scroller.removeEventListener("scroll", onScroll);
        return;
      }
      if (due) return;
      due = true;
      requestAnimationFrame(() => {
        due = false;
        if (!canvas.isConnected) return;
        const now = stuck();
        if (now !== st.stuck) {
          st.stuck = now;
          paintAxis(canvas, st);
        }
        canvas.dispatchEvent(new Event("watchlensseen"));
      });
    };
    scroller.addEventListener("scroll", onScroll, {passive: true});
  }

  // wrap cuts s into lines of at most w pixels in ctx's font, at spaces
  // (a word longer than a line is cut short).
  function wrap(ctx, s, w) {
    const lines = [];
    let cur = "";
    for (const word of s.split(/\s+/)) {
      if (!word) continue;
      const next = cur ? cur + " " + word : word;
      if (cur && ctx.measureText(next).width > w) {
        lines.push(fit(ctx, cur, w));
        cur = word;
      } else {
        cur = next;
      }
    }
    if (cur) lines.push(fit(ctx, cur, w));
    return lines;
  }

  // watchlensPNG returns a PNG (a data: URL) of the timeline canvas with,
  // above it, a title, lines of text (the range) and the whole verdict,
  // wrapped to the width, and under it the legend: what a postmortem
  // needs around the picture. spec is JSON: {title, lines: [...],
  // verdict: [...], legend: [[symbol, colour, text]]}. The canvas's
  // data-png-top and data-png-text say where the timeline starts in the
  // picture and what text it carries.
  window.watchlensPNG = function (canvas, specJSON) {
    const spec = JSON.parse(specJSON);
    const style = getComputedStyle(canvas);
    const bg = style.getPropertyValue("--panel").trim() || "#fff";
    const fg = style.getPropertyValue("--fg").trim() || "#000";
    const muted = style.getPropertyValue("--muted").trim() || "#555";
    const r = canvas.clientWidth ? canvas.width / canvas.clientWidth : 1;
    const W = canvas.width, pad = 10 * r, line = 18 * r;
    const font = (px, w) => (w || "") + " " + px * r + "px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
    const out = document.createElement("canvas");
    const ctx = out.getContext("2d");
    // The text above, and the legend's items placed in rows that fit
    // the width.
    ctx.font = font(12);
    const rows = [];
    for (const l of spec.lines || []) rows.push({ text: fit(ctx, l, W - 2 * pad), colour: muted });
    for (const l of spec.verdict || []) {
      for (const w of wrap(ctx, l, W - 2 * pad)) rows.push({ text: w, colour: fg });
    }
    const items = [];
    let x = pad, y = 0;
    for (const [sym, c, text] of spec.legend) {
      const w = ctx.measureText(sym + " " + text).width + 18 * r;
      if (x + w > W - pad && x > pad) {
        x = pad;
        y += line;
      }
      items.push({ sym, c, text, x, y });
      x += w;
    }
    const top = pad + line * 1.3 + rows.length * line + pad / 2;
    const legendH = y + line + pad;
    out.width = W;
    out.height = Math.ceil(top + canvas.height + legendH);
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.textBaseline = "top";
    ctx.fillStyle = fg;
    ctx.font = font(16, "600");
    const title = fit(ctx, spec.title, W - 2 * pad);
    ctx.fillText(title, pad, pad);
    ctx.font = font(12);
    rows.forEach((row, i) => {
      ctx.fillStyle = row.colour;
      ctx.fillText(row.text, pad, pad + line * 1.3 + i * line);
    });
    ctx.drawImage(canvas, 0, Math.round(top));
    const ly = Math.round(top) + canvas.height + pad / 2;
    for (const it of items) {
      ctx.font = font(12, "700");
      ctx.fillStyle = style.getPropertyValue(it.c).trim() || it.c;
      ctx.fillText(it.sym, it.x, ly + it.y);
      ctx.font = font(12);
      ctx.fillStyle = fg;
      ctx.fillText(it.text, it.x + 14 * r, ly + it.y);
    }
    canvas.dataset.pngTop = String(Math.round(top));
    canvas.dataset.pngText = [title, ...rows.map((row) => row.text)].join("\n");
    canvas.dataset.pngLegend = spec.legend.map(([, , text]) => text).join("\n");
    return out.toDataURL("image/png");
  };

  // While app.wasm downloads, the page shows its pre-rendered shell (the
  // header) and this bar: go-app's loader only writes "Loading watchlens
  // N%" in a label, which app.css moves from a full-window cover to a
  // line under the header; the bar follows the label's number.
  function loaderBar() {
    const loader = document.getElementById("app-wasm-loader");
    const label = document.getElementById("app-wasm-loader-label");
    if (!loader || !label || document.getElementById("app-wasm-progress")) {
      return;
    }
    const bar = document.createElement("progress");
    bar.id = "app-wasm-progress";
    bar.max = 100;
    bar.setAttribute("aria-label", "Loading watchlens");
    loader.appendChild(bar);
    const follow = () => {
      const m = /(\d+)\s*%/.exec(label.textContent);
      if (m) {
        bar.value = Number(m[1]);
      }
    };
    new MutationObserver(follow).observe(label, { childList: true, characterData: true, subtree: true });
    follow();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", loaderBar);
  } else {
    loaderBar();
  }
})();
