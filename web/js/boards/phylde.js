// Phylde: an 18x18 go-style board; soldiers (S), archers (A) and cavaliers
// (C) stand in squares, each King on a point (a line crossing) whose four
// squares stay free. Square `e5`; point `i1+` = the point at the north-east
// corner of square i1. FEN ranks 18..1, `R`/`r` written on the King's
// south-west square; side `S`/`N`; then the turn state (`S2:e6,g6`).
// Actions `e5-e6`, `e5xe6`, `c3*c5` (shot), `i1+-i2+` (King), `end`.
import { cell } from '../board.js';
import { t } from '../i18n.js';
import { esc } from '../util.js';

const FILES = 'abcdefghijklmnopqr';
const U = 10;
const GLYPH = { S: '•', A: '➶', C: '♞' };
const pieceName = (letter) => t(`phylde.pieces.${letter}`);

function sq(name) {
  return [FILES.indexOf(name[0]), Number(name.slice(1)) - 1];
}

/**
 * The no-capture count as players read it, worded as `tabula play` does: completed turns only
 * (the position string also counts the turn in progress once it has acted), and a warning when
 * this turn, ending without a capture, makes the draw (judged at the turn end).
 */
export function noCaptureText(model, spec) {
  const limit = Number(/no_capture_turns=(\d+)/i.exec(spec)?.[1] ?? 100);
  const acted = model.turnCount > 0;
  if (acted && model.noCapture === 0) return t('phylde.noCaptureCaptured', { limit });
  const done = model.noCapture - (acted ? 1 : 0);
  const text = t('phylde.noCapture', { done, limit });
  return !model.drawn && done + 1 >= limit ? `${text} ${t('phylde.drawThisTurn')}` : text;
}

export default {
  /** Small squares on a phone: the page offers a zoomed, scrollable board. */
  zoomable: true,

  parse(fen) {
    const [board = '', side = 'S', turn = '-', noCapture = '0', , last] = fen.split(' ');
    const pieces = new Map();
    const kings = [];
    board.split('/').forEach((rank, i) => {
      const y = 17 - i;
      let x = 0;
      for (const m of rank.matchAll(/(\d+)|([A-Za-z])/g)) {
        if (m[1]) { x += Number(m[1]); continue; }
        const ch = m[2];
        const p = ch === ch.toUpperCase() ? 0 : 1;
        if (ch.toUpperCase() === 'R') kings.push({ side: p, point: `${FILES[x]}${y + 1}+` });
        else pieces.set(`${FILES[x]}${y + 1}`, { kind: ch.toUpperCase(), side: p });
        x += 1;
      }
    });
    const acted = new Set();
    const tm = /^([SACR])(\d):(.*)$/.exec(turn);
    if (tm) tm[3].split(',').filter(Boolean).forEach((s) => acted.add(s));
    return {
      pieces, kings, toMove: side === 'N' ? 1 : 0, acted,
      turnKind: tm ? tm[1] : null, turnCount: tm ? Number(tm[2]) : 0,
      noCapture: Number(noCapture) || 0, drawn: last === 'draw',
    };
  },

  locate(action) {
    let m = /^([a-q]\d+\+)-([a-q]\d+\+)$/.exec(action);
    if (m) return { from: m[1], to: m[2], label: t('phylde.kingLabel', { action }) };
    m = /^([a-r]\d+)([-x*])([a-r]\d+)$/.exec(action);
    if (!m) return null;
    const label = m[2] === '*' ? t('phylde.shootLabel', { from: m[1], to: m[3] })
      : m[2] === 'x' ? t('phylde.captureLabel', { to: m[3] }) : t('phylde.moveLabel', { to: m[3] });
    return { from: m[1], to: m[3], label };
  },

  label(action) {
    return action === 'end' ? t('phylde.end') : action;
  },

  /** A turn moves one kind of piece, each piece once. */
  explain(action, legal, model) {
    const at = this.locate(action.toLowerCase());
    if (!at || !model) return null;
    if (model.acted.has(at.from)) return t('phylde.actedAlready', { square: at.from });
    const piece = model.pieces.get(at.from);
    const kind = model.turnKind;
    if (kind && (kind === 'R' ? !at.from.endsWith('+') : piece?.kind !== kind)) {
      return t('phylde.onlyKind', { kind: t(`phylde.turnKinds.${kind}`) });
    }
    return null;
  },

  draw(model, view) {
    const flip = view.flip;
    const px = (x) => (flip ? 17 - x : x) * U;
    const py = (y) => (flip ? y : 17 - y) * U;
    let out = `<svg class="board phylde" viewBox="-8 -8 196 196" role="img" aria-label="${esc(t('phylde.boardLabel'))}">`;
    out += `<rect class="wood" x="-6" y="-6" width="192" height="192" rx="3"/>`;
    for (let y = 0; y < 18; y++) {
      for (let x = 0; x < 18; x++) {
        const name = `${FILES[x]}${y + 1}`;
        out += cell(name, `<rect class="sq" x="${px(x)}" y="${py(y)}" width="${U}" height="${U}"/>`, px(x) + U / 2, py(y) + U / 2, 1.8);
      }
    }
    for (let i = 0; i <= 18; i++) {
      out += `<line class="grid" x1="${i * U}" y1="0" x2="${i * U}" y2="${18 * U}"/><line class="grid" x1="0" y1="${i * U}" x2="${18 * U}" y2="${i * U}"/>`;
    }
    for (let i = 0; i < 18; i++) {
      out += `<text class="coord" x="${px(i) + U / 2}" y="${18 * U + 4.5}">${FILES[i]}</text><text class="coord" x="-4" y="${py(i) + U / 2 + 1.2}">${i + 1}</text>`;
    }
    for (const [name, p] of model.pieces) {
      const [x, y] = sq(name);
      const acted = model.acted.has(name) ? ' acted' : '';
      out += `<g class="piece p${p.side}${acted}" data-at="${name}" aria-label="${esc(pieceName(p.kind))}"><circle cx="${px(x) + U / 2}" cy="${py(y) + U / 2}" r="3.8"/><text x="${px(x) + U / 2}" y="${py(y) + U / 2 + 2}">${GLYPH[p.kind] || p.kind}</text></g>`;
    }
    // Points: the King's, and every point a King could step to.
    for (let X = 1; X <= 17; X++) {
      for (let Y = 1; Y <= 17; Y++) {
        const name = `${FILES[X - 1]}${Y}+`;
        const cx = flip ? (18 - X) * U : X * U;
        const cy = flip ? Y * U : (18 - Y) * U;
        out += `<g class="cell pt" data-key="${name}"><circle class="hit" cx="${cx}" cy="${cy}" r="3"/><circle class="mark" cx="${cx}" cy="${cy}" r="2"/></g>`;
      }
    }
    for (const k of model.kings) {
      const [x, y] = sq(k.point.slice(0, -1));
      const cx = flip ? (17 - x) * U : (x + 1) * U;
      const cy = flip ? (y + 1) * U : (17 - y) * U;
      out += `<g class="king p${k.side}" data-at="${k.point}"><circle class="quad" cx="${cx}" cy="${cy}" r="9"/><circle cx="${cx}" cy="${cy}" r="5.5"/><text x="${cx}" y="${cy + 2.6}">♔</text></g>`;
    }
    return out + '</svg>';
  },

  extra(model, spec = '') {
    const count = `<span>${esc(noCaptureText(model, spec))}</span>`;
    if (!model.turnKind) return count;
    const limit = { S: 5, A: 2, C: 1, R: 1 }[model.turnKind];
    const kind = t(`phylde.turnKinds.${model.turnKind}`);
    return `<span>${esc(t('phylde.thisTurn', { kind, done: model.turnCount, count: limit }))}</span> ${count}`;
  },
};
