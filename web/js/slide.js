// The move animation: once the board shows the new position (the truth),
// each piece that just moved slides there from where it stood, step by step
// for a turn of several actions, and a captured piece stays on its square
// until the step that takes it ends. Pieces are the elements with
// `data-at` (their cell's key); cells are the `data-key` elements.

/** One step's time, and the most a whole turn may take. */
const STEP_MS = 180;
const TURN_MS = 520;

const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)');

/** Whether to animate at all: not for people who asked for less motion. */
export function motionAllowed() {
  return !reducedMotion?.matches;
}

/**
 * A cell's centre in its own user space (where its piece is drawn too):
 * its target marker's, which each board puts where its pieces stand (a
 * triangle's centroid), else the middle of its shape.
 */
function centre(cell) {
  const mark = cell.querySelector('circle.mark');
  if (mark) return [mark.cx.baseVal.value, mark.cy.baseVal.value];
  const b = (cell.firstElementChild || cell).getBBox();
  return [b.x + b.width / 2, b.y + b.height / 2];
}

/**
 * Where each piece of the new position came from: for the key it stands
 * on, the steps (index and cells passed) that brought it there.
 */
function tracks(steps) {
  const out = new Map();
  steps.forEach((s, i) => {
    const track = out.get(s.from) || [];
    out.delete(s.from);
    out.set(s.to, [...track, { i, cells: s.path || [s.from, s.to] }]);
  });
  return out;
}

/**
 * Animate `steps` ([{from, to, path?}] in order) on the board in `host`,
 * whose cells are `cells` (key -> element). `before`: the pieces drawn
 * before (key -> element), when the board showed the position the steps
 * start from, for the captured ones; null otherwise. Returns a handle
 * whose `finish()` ends it at once, or null when nothing moves.
 */
export function slide(host, cells, steps, before) {
  const pieceAt = (key) => host.querySelector(`[data-at="${CSS.escape(key)}"]`);
  const step = Math.max(90, Math.min(STEP_MS, TURN_MS / steps.length));
  const duration = step * steps.length;
  const anims = [];
  const moving = [];
  for (const [key, track] of tracks(steps)) {
    const el = pieceAt(key);
    const keys = track.flatMap((t) => t.cells);
    if (!el || !keys.every((k) => cells.has(k))) continue; // another level (phone): it just appears
    const [cx, cy] = centre(cells.get(key));
    const at = (k) => {
      const [x, y] = centre(cells.get(k));
      return `translate(${(x - cx).toFixed(2)}px, ${(y - cy).toFixed(2)}px)`;
    };
    const frames = [{ offset: 0, transform: at(track[0].cells[0]) }];
    for (const { i, cells: path } of track) {
      const start = i / steps.length;
      const span = 1 / steps.length;
      path.forEach((k, j) => frames.push({ offset: start + (span * j) / (path.length - 1), transform: at(k), easing: 'ease-in-out' }));
    }
    frames.push({ offset: 1, transform: 'translate(0px, 0px)' });
    el.parentNode.append(el); // over the other pieces while it moves
    el.classList.add('moving');
    moving.push(el);
    anims.push(el.animate(frames, { duration }));
  }
  const ghosts = [];
  if (before) {
    for (const [key, old] of before) {
      // Captured: a step lands where it stands before any leaves there, or
      // it is gone without a step leaving there (jumped over, shot).
      const first = steps.find((s) => s.from === key || s.to === key);
      const captured = first ? first.to === key && first.from !== key : !pieceAt(key);
      if (!cells.has(key) || !captured) continue;
      // It goes at the end of the last step that lands there.
      let last = steps.length - 1;
      steps.forEach((s, i) => { if (s.to === key || s.path?.includes(key)) last = i; });
      const end = (last + 1) / steps.length;
      old.classList.add('captured');
      cells.get(key).after(old);
      ghosts.push(old);
      const frames = [{ offset: 0, opacity: 1 }, { offset: end * 0.999, opacity: 1 }, { offset: end, opacity: 0 }];
      if (end < 1) frames.push({ offset: 1, opacity: 0 });
      anims.push(old.animate(frames, { duration, fill: 'forwards' }));
    }
  }
  if (!anims.length) return null;
  host.classList.add('animating');
  host.dataset.animations = String(Number(host.dataset.animations || 0) + 1);
  let done = false;
  const cleanup = () => {
    if (done) return;
    done = true;
    for (const g of ghosts) g.remove();
    for (const el of moving) el.classList.remove('moving');
    host.classList.remove('animating');
  };
  Promise.all(anims.map((a) => a.finished)).then(cleanup, cleanup);
  return {
    finish() {
      for (const a of anims) a.finish();
      cleanup();
    },
  };
}
