// watchlens timeline: draws one frame the Go side built (app/timeline_draw.go).
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

  // The colours follow the light or dark theme, read when a frame is
  // drawn: when the system switches theme, each canvas on the page draws
  // its last frame again (the page itself may not render at all).
  const lastFrames = new Map();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    for (const [canvas, frame] of [...lastFrames]) {
      window.watchlensDraw(canvas, ...frame);
    }
  });

  // The timeline's segments are vertical or horizontal (ticks, step lines,
  // lifetimes; app/timeline_draw.go's tests hold it to that), so the solid
  // ones are filled as rectangles on whole device pixels, square-ended, in
  // one path. Stroked, they took 4.4 of a pan frame's 6 ms of raster with
  // a million events; filled, 1.7 ms.
  function fillSegments(ctx, f, from, to, width, dpr, colour) {
    const w = Math.max(1, Math.round(width * dpr));
    const lo = (v) => Math.round(v * dpr - w / 2);
    const hi = (v) => Math.round(v * dpr + w / 2);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = colour;
    ctx.beginPath();
    for (let i = from; i < to; i += 4) {
      const x1 = f[i], y1 = f[i + 1], x2 = f[i + 2], y2 = f[i + 3];
      if (x1 === x2) {
        const y = lo(Math.min(y1, y2));
        ctx.rect(lo(x1), y, w, hi(Math.max(y1, y2)) - y);
      } else {
        const x = lo(Math.min(x1, x2));
        ctx.rect(x, lo(y1), hi(Math.max(x1, x2)) - x, w);
      }
    }
    ctx.fill();
    ctx.restore();
  }

  // watchlensDraw(canvas, specJSON, bytes, nFloats): size the canvas for
  // the device's pixel ratio (sharp on HiDPI screens) and draw the frame.
  window.watchlensDraw = function (canvas, specJSON, bytes, nFloats) {
    for (const c of lastFrames.keys()) {
      if (!c.isConnected) lastFrames.delete(c);
    }
    lastFrames.set(canvas, [specJSON, bytes, nFloats]);
    const spec = JSON.parse(specJSON);
    const dpr = spec.dpr || 1;
    const w = Math.round(spec.w * dpr);
    const h = Math.round(spec.h * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    canvas.style.width = spec.w + "px";
    canvas.style.height = spec.h + "px";
    const f = new Float32Array(bytes.buffer, bytes.byteOffset, nFloats);
    const color = resolver(canvas);
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, spec.w, spec.h);
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
            fillSegments(ctx, f, op.o, end, op.z || 1, dpr, color(op.c));
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
          const shape = shapes[op.s] || shapes.dot;
          const s = op.z || 8;
          ctx.beginPath();
          for (let i = op.o; i < end; i += 2) {
            shape(ctx, f[i], f[i + 1], s);
          }
          if (stroked[op.s]) {
            ctx.strokeStyle = color(op.c);
            ctx.lineWidth = stroked[op.s];
            ctx.stroke();
          } else {
            ctx.fillStyle = color(op.c);
            ctx.fill();
          }
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
            ctx.font = fonts[t.f || ""];
            ctx.textAlign = aligns[t.a || "l"];
            ctx.fillStyle = color(t.c);
            ctx.fillText(t.s, t.x, t.y);
          }
          break;
      }
    }
    if (clipped) {
      ctx.restore();
    }
    ctx.globalAlpha = 1;
  };
})();
