// Dragonchess: three 12x8 boards, 3 = Sky, 2 = Ground, 1 = Underworld.
// Square `2e4` = level, file a-l, rank 1-8. Position: the three levels
// `3|2|1`, each FEN-like with ranks 8..1, then side `g`/`s`. Actions
// `W2e2-2e3`, `R3f5x2f4` (the Dragon captures from afar), `W2c7-2c8=H`.
import { cell } from '../board.js';
import { t } from '../i18n.js';
import { esc } from '../util.js';
import { pieceSvg } from './dragonchess-pieces.js';

const FILES = 'abcdefghijkl';
const U = 10;
const GAP = 8;
/** The piece letters of the notation, in the order of the legend. */
const PIECES = 'SGRWOUHTCMKPDBE';
const pieceName = (letter) => t(`dragonchess.pieces.${letter}`);
export const LEVELS = [
  { n: 3, get name() { return t('dragonchess.levels.sky'); } },
  { n: 2, get name() { return t('dragonchess.levels.ground'); } },
  { n: 1, get name() { return t('dragonchess.levels.underworld'); } },
];

export default {
  levels: LEVELS,
  pieceName,
  /** Three 12x8 levels side by side: the page gives the board its whole width. */
  wide: true,

  parse(pos) {
    const [boards = '', side = 'g'] = pos.split(' ');
    const pieces = new Map();
    boards.split('|').forEach((level, li) => {
      const l = 3 - li;
      level.split('/').forEach((rank, ri) => {
        const r = 8 - ri;
        let f = 0;
        for (const m of rank.matchAll(/(\d+)|([A-Za-z])/g)) {
          if (m[1]) { f += Number(m[1]); continue; }
          const ch = m[2];
          pieces.set(`${l}${FILES[f]}${r}`, { kind: ch.toUpperCase(), side: ch === ch.toUpperCase() ? 0 : 1 });
          f += 1;
        }
      });
    });
    return { pieces, toMove: side === 's' ? 1 : 0 };
  },

  locate(action) {
    const m = /^([A-Z])([1-3][a-l][1-8])([-x])([1-3][a-l][1-8])(=H)?[+#]?$/.exec(action);
    if (!m) return null;
    return { from: m[2], to: m[4], label: t('dragonchess.moveLabel', { piece: pieceName(m[1]), action }) };
  },

  /** An action in words: "Warrior from 2e7 to 2e6", "Dragon from 3f5 takes on 2f4". */
  describe(action) {
    const m = /^([A-Z])([1-3][a-l][1-8])([-x])([1-3][a-l][1-8])/.exec(action);
    if (!m) return action;
    const vars = { piece: pieceName(m[1]), from: m[2], to: m[4] };
    return m[3] === 'x' ? t('dragonchess.captureWords', vars) : t('dragonchess.moveWords', vars);
  },

  /** The square of the King of the side to move (to show a check). */
  kingToMove(model) {
    for (const [key, p] of model.pieces) if (p.kind === 'K' && p.side === model.toMove) return key;
    return null;
  },

  /** view.level: show one level (phones) or all three side by side. */
  draw(model, view) {
    const shown = view.level ? LEVELS.filter((l) => l.n === view.level) : LEVELS;
    const w = shown.length * 12 * U + (shown.length - 1) * GAP;
    let out = `<svg class="board dragonchess" viewBox="-6 -9 ${w + 8} ${8 * U + 16}" role="img" aria-label="${esc(t('dragonchess.boardLabel'))}">`;
    let pieces = ''; // drawn after every square, so that a moving piece passes over them
    shown.forEach((lv, i) => {
      const ox = i * (12 * U + GAP);
      out += `<text class="lvname" x="${ox + 6 * U}" y="-3">${lv.n} · ${esc(lv.name)}</text>`;
      out += `<g class="level l${lv.n}">`;
      for (let r = 1; r <= 8; r++) {
        for (let f = 0; f < 12; f++) {
          const x = ox + (view.flip ? 11 - f : f) * U;
          const y = (view.flip ? r - 1 : 8 - r) * U;
          const light = (f + r - 1) % 2 === 1 ? 'light' : 'dark';
          const key = `${lv.n}${FILES[f]}${r}`;
          out += cell(key, `<rect class="sq ${light}" x="${x}" y="${y}" width="${U}" height="${U}"/>`, x + U / 2, y + U / 2, 1.8);
          const p = model.pieces.get(key);
          if (p) pieces += pieceSvg(p.kind, p.side, x + 0.7, y + 0.7, U - 1.4, esc(`${p.kind} ${pieceName(p.kind)}`), ` data-at="${key}"`);
        }
      }
      out += '</g>';
      // Coordinates: files under each level, ranks on its left (in the gap).
      for (let f = 0; f < 12; f++) {
        const x = ox + (view.flip ? 11 - f : f) * U + U / 2;
        out += `<text class="coord" x="${x}" y="${8 * U + 4.5}">${FILES[f]}</text>`;
      }
      for (let r = 1; r <= 8; r++) {
        const y = (view.flip ? r - 1 : 8 - r) * U + U / 2 + 1.2;
        out += `<text class="coord" x="${ox - 2.6}" y="${y}">${r}</text>`;
      }
    });
    return `${out}<g class="pieces">${pieces}</g></svg>`;
  },

  /** The legend: each piece's picture, letter and name. */
  extra() {
    const items = [...PIECES].map((p) => `<span class="dc-legend-item"><svg class="dc-piece p0" viewBox="0 0 20 20" aria-hidden="true">${pieceSvg(p, 0, 0, 0, 20, '')}</svg>${esc(`${p} ${pieceName(p)}`)}</span>`);
    return `<span class="dc-legend muted">${items.join(' ')}</span>`;
  },
};
