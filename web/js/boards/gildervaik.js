// Gildervaik: a triangle of 100 small triangles in 10 rows, a zone of 16
// cells in each corner (A top, B bottom-right, C bottom-left), three seats.
// Cell `e5` = row e (5th from the top), 5th cell from the left; odd numbers
// point up. Position `A:e3,e5 B:e6 C:f7 / A ...`. Actions `d7-e8`,
// `e5xe7xf9` (a capture path), `pass`.
import { cell } from '../board.js';
import { t } from '../i18n.js';
import { esc } from '../util.js';

const S = 10;
const H = S * Math.sqrt(3) / 2;
const X0 = 5 * S;
const ROWS = 'abcdefghij';

function zone(r, c) {
  if (r <= 3) return 0;
  if (c >= 12) return 1;
  if (r >= 6 && c <= 2 * (r - 6)) return 2;
  return -1;
}

function corners(r, c) {
  const k = Math.floor(c / 2);
  const top = X0 - (r * S) / 2 + k * S;
  const bot = X0 - ((r + 1) * S) / 2 + k * S;
  const y0 = r * H;
  const y1 = (r + 1) * H;
  return c % 2 === 0
    ? [[top, y0], [bot, y1], [bot + S, y1]]
    : [[top, y0], [top + S, y0], [bot + S, y1]];
}

function centre(r, c) {
  const p = corners(r, c);
  return [(p[0][0] + p[1][0] + p[2][0]) / 3, (p[0][1] + p[1][1] + p[2][1]) / 3];
}

export default {
  parse(pos) {
    const [board, rest = ''] = pos.split(' / ');
    const at = new Map();
    for (const part of board.trim().split(/\s+/)) {
      const m = /^([ABC]):(.*)$/.exec(part);
      if (!m) continue;
      for (const name of m[2].split(',').filter(Boolean)) at.set(name, 'ABC'.indexOf(m[1]));
    }
    return { at, toMove: 'ABC'.indexOf(rest.trim()[0]) };
  },

  locate(action) {
    if (!/^[a-j]\d+([-x][a-j]\d+)+$/.test(action)) return null;
    const path = action.split(/[-x]/);
    const captures = action.includes('x');
    return { from: path[0], to: path[path.length - 1], path, label: captures ? t('gildervaik.captureLabel', { action }) : action };
  },

  label(action) {
    return action === 'pass' ? t('gildervaik.pass') : action;
  },

  /** Warrior: when a capture exists, every move must capture. */
  explain(action, legal) {
    const capture = legal.find((a) => a.includes('x'));
    if (!capture || /x/i.test(action)) return null;
    const [from, to] = capture.split('x');
    return t('gildervaik.mustCapture', { from, to });
  },

  /** Why the mover's pawn on `key` may not move (a capture elsewhere is compulsory), or null. */
  whyStuck(key, legal, model) {
    return model.at.get(key) === model.toMove ? this.explain(key, legal) : null;
  },

  /** A line through the centres of `cells`: a chain jump's path (class `cls`). */
  route(cells, cls) {
    const points = cells.map((name) => centre(ROWS.indexOf(name[0]), Number(name.slice(1)) - 1).map((v) => v.toFixed(2)).join(',')).join(' ');
    return `<polyline class="route ${esc(cls)}" points="${points}"/>`;
  },

  /** view.turn: which zone is drawn bottom-right (0 A, 1 B, 2 C). */
  draw(model, view) {
    const angle = { 0: 120, 1: 0, 2: -120 }[view.turn ?? 1];
    let out = `<svg class="board gildervaik" viewBox="-5 -5 ${10 * S + 10} ${10 * H + 10}" role="img" aria-label="${esc(t('gildervaik.boardLabel'))}">`;
    out += `<g transform="rotate(${angle} ${X0} ${((20 * H) / 3).toFixed(2)})">`;
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c <= 2 * r; c++) {
        const name = `${ROWS[r]}${c + 1}`;
        const pts = corners(r, c).map((p) => p.map((v) => v.toFixed(2)).join(',')).join(' ');
        const [cx, cy] = centre(r, c);
        const z = zone(r, c);
        const shape = `<polygon class="tri ${z < 0 ? 'mine' : `z${z}`} ${c % 2 ? 'down' : 'up'}" points="${pts}"/>`;
        out += cell(name, shape, cx.toFixed(2), cy.toFixed(2), 1.3);
      }
    }
    for (const [name, p] of model.at) {
      const r = ROWS.indexOf(name[0]);
      const c = Number(name.slice(1)) - 1;
      const [cx, cy] = centre(r, c);
      out += `<circle class="pawn p${p}" data-at="${name}" cx="${cx.toFixed(2)}" cy="${cy.toFixed(2)}" r="2.1"/>`;
    }
    // The row letters, beside each row's first cell, upright whatever the turn.
    for (let r = 0; r < 10; r++) {
      const [cx, cy] = centre(r, 0);
      out += `<text class="coord" x="${(cx - 5.6).toFixed(2)}" y="${(cy + 1).toFixed(2)}" transform="rotate(${-angle} ${(cx - 5.6).toFixed(2)} ${cy.toFixed(2)})">${ROWS[r]}</text>`;
    }
    return out + '</g></svg>';
  },

  extra(model) {
    const n = [0, 0, 0];
    for (const p of model.at.values()) n[p]++;
    return ['A', 'B', 'C'].map((s, i) => `<span class="chip p${i}">${esc(t('gildervaik.pawns', { side: s, count: n[i] }))}</span>`).join(' ');
  },
};
