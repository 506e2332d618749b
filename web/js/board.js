// The board on screen, for any game: draws the position with the game's
// module, lights up what can move and where, and turns clicks, drags and
// keys into actions. It holds no rules: the legal actions come from the
// server and the module only maps action text to cells.
import { t } from './i18n.js';
import { esc } from './util.js';
import { slide, motionAllowed } from './slide.js';

/** A clickable cell: its shape, and a marker shown when it is a target. */
export function cell(key, shape, cx, cy, r, extra = '') {
  return `<g class="cell${extra}" data-key="${key}">${shape}<circle class="mark" cx="${cx}" cy="${cy}" r="${r}"/></g>`;
}

export class BoardView {
  /**
   * host: element to draw in; game: the game's board module;
   * onPlay(action): called with the action text chosen.
   */
  constructor(host, game, onPlay) {
    this.host = host;
    this.game = game;
    this.onPlay = onPlay;
    this.selected = null;
    this.moves = new Map(); // from key -> [{to, action, label}]
    this.view = {};
    this.els = new Map();
    this.animation = null;
    // Any touch or key on the board ends a move animation at once.
    host.addEventListener('pointerdown', () => this.finishAnimation(), true);
    host.addEventListener('keydown', () => this.finishAnimation(), true);
    host.addEventListener('pointerdown', (e) => this.pointerDown(e));
    host.addEventListener('pointerup', (e) => this.pointerUp(e));
    // A touch that turns into panning (zoomed board) sends no click.
    host.addEventListener('pointercancel', () => { this.dragFrom = null; this.justSelected = false; });
    host.addEventListener('click', (e) => this.click(e));
    host.addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && e.target.dataset?.key) {
        e.preventDefault();
        this.tap(e.target.dataset.key);
      } else if (e.key === 'Escape') {
        this.select(null);
      }
    });
  }

  /**
   * pos: position string; legal: actions playable by this browser now;
   * routes: {action: cells} for legal actions whose text leaves out cells
   * they pass through (the server's `routes`: a Gildervaik chain jump);
   * last: the actions of the last turn (one action text or a list), and
   * lastRoutes the routes of those that have one;
   * steps: the actions that led from the position on screen to `pos`, to
   * animate (none: `pos` just appears).
   */
  show({ pos, legal = [], routes = {}, last = null, lastRoutes = [], hint = null, check = false, view = {}, steps = [] }) {
    this.finishAnimation();
    this.view = { ...this.view, ...view };
    const model = this.game.parse(pos);
    this.model = model;
    const moves = steps.map((a) => this.game.locate(a)).filter(Boolean);
    const animate = moves.length > 0 && motionAllowed();
    const before = animate ? new Map([...this.host.querySelectorAll('[data-at]')].map((el) => [el.dataset.at, el])) : null;
    // Redrawing replaces every cell: a keyboard player keeps the cell they were on.
    const focused = this.host.contains(document.activeElement) ? document.activeElement.closest?.('[data-key]')?.dataset.key : null;
    this.host.innerHTML = this.game.draw(model, this.view);
    this.els = new Map();
    for (const el of this.host.querySelectorAll('[data-key]')) this.els.set(el.dataset.key, el);
    if (animate) this.animation = slide(this.host, this.els, moves, before);
    this.moves = new Map();
    for (const action of legal) {
      const at = this.game.locate(action);
      if (!at) continue;
      if (!this.moves.has(at.from)) this.moves.set(at.from, []);
      this.moves.get(at.from).push({ ...at, action });
    }
    this.routes = routes;
    for (const action of [].concat(last ?? [])) this.mark(action, 'last');
    for (const cells of lastRoutes) this.drawRoute(cells, 'last');
    this.mark(hint, 'hint');
    const king = check && this.game.kingToMove?.(model);
    if (king) this.els.get(king)?.classList.add('incheck');
    if (!this.moves.has(this.selected)) this.selected = null;
    this.paint();
    if (focused) this.els.get(focused)?.focus({ preventScroll: true });
  }

  /** End a running move animation: the pieces stand where `show` put them. */
  finishAnimation() {
    const a = this.animation;
    this.animation = null;
    a?.finish();
  }

  mark(action, cls) {
    const at = action && this.game.locate(action);
    if (!at) return;
    for (const k of at.path || [at.from, at.to]) this.els.get(k)?.classList.add(cls);
  }

  /**
   * The path of a move through `cells`: a line the game's module draws
   * (if it can), and each cell marked `cls`, or for a move being chosen
   * (`choice`) its landings on the way marked `via`.
   */
  drawRoute(cells, cls) {
    const line = this.game.route?.(cells, cls);
    const host = this.host.querySelector('svg > g') || this.host.querySelector('svg');
    if (line && host) host.insertAdjacentHTML('beforeend', line);
    const marked = cls === 'choice' ? cells.slice(1, -1) : cells;
    for (const k of marked) this.els.get(k)?.classList.add(cls === 'choice' ? 'via' : cls);
  }

  paint() {
    for (const line of this.host.querySelectorAll('.route.choice')) line.remove();
    for (const [key, el] of this.els) {
      const movable = this.moves.has(key);
      el.classList.toggle('from', movable);
      el.classList.toggle('sel', key === this.selected);
      el.classList.remove('target', 'via');
      el.removeAttribute('tabindex');
      if (movable) el.setAttribute('tabindex', '0');
    }
    for (const m of this.moves.get(this.selected) || []) {
      const el = this.els.get(m.to);
      if (el) { el.classList.add('target'); el.setAttribute('tabindex', '0'); }
      if (this.routes?.[m.action]) this.drawRoute(this.routes[m.action], 'choice');
    }
    this.host.dataset.selected = this.selected || '';
  }

  select(key) {
    this.selected = key;
    this.paint();
    this.host.dispatchEvent(new CustomEvent('selectionchange', { detail: key }));
  }

  /**
   * The cell under the pointer; on small boards (a phone), a tap that
   * misses every piece that can move, or every target, snaps to the
   * nearest one within a finger's width.
   */
  keyAt(e) {
    const el = document.elementFromPoint(e.clientX, e.clientY) || e.target;
    const key = el?.closest?.('[data-key]')?.dataset.key || null;
    const wanted = new Set(this.moves.keys());
    for (const m of this.targets(this.selected)) wanted.add(m.to);
    if ((key && wanted.has(key)) || e.clientX === undefined) return key;
    let best = key;
    let bestDist = 22 * 22;
    for (const k of wanted) {
      const r = this.els.get(k)?.getBoundingClientRect();
      if (!r) continue;
      const dx = r.x + r.width / 2 - e.clientX;
      const dy = r.y + r.height / 2 - e.clientY;
      if (dx * dx + dy * dy < bestDist) { best = k; bestDist = dx * dx + dy * dy; }
    }
    return best;
  }

  pointerDown(e) {
    const key = this.keyAt(e);
    this.dragFrom = null;
    if (key && this.moves.has(key) && key !== this.selected) {
      this.select(key);
      this.dragFrom = key;
      this.justSelected = true;
    }
  }

  pointerUp(e) {
    if (!this.dragFrom) return;
    const key = this.keyAt(e);
    const from = this.dragFrom;
    this.dragFrom = null;
    if (key && key !== from && this.targets(from).some((m) => m.to === key)) {
      this.suppressClick = true;
      this.play(from, key);
    }
  }

  click(e) {
    if (this.suppressClick) { this.suppressClick = false; return; }
    if (this.justSelected) { this.justSelected = false; return; }
    // A keyboard "click" has no pointer position: take the focused cell.
    const key = e.detail === 0 ? e.target.closest?.('[data-key]')?.dataset.key : this.keyAt(e);
    this.tap(key || null);
  }

  targets(from) {
    return this.moves.get(from) || [];
  }

  /** A tap on `key`: play there, pick that piece, or drop the selection. */
  tap(key) {
    this.justSelected = false;
    if (this.selected && this.targets(this.selected).some((m) => m.to === key)) {
      this.play(this.selected, key);
    } else if (key && this.moves.has(key) && key !== this.selected) {
      this.select(key);
    } else {
      this.select(null);
      // A cell that cannot move now while others can: the page may say why.
      if (key && !this.moves.has(key) && this.moves.size) {
        this.host.dispatchEvent(new CustomEvent('stuck', { detail: { key, model: this.model } }));
      }
    }
  }

  play(from, to) {
    const options = this.targets(from).filter((m) => m.to === to);
    this.select(null);
    if (options.length === 1) return this.onPlay(options[0].action);
    choose(options).then((m) => m && this.onPlay(m.action));
  }
}

/** Several actions share a from and a to: ask which one. */
function choose(options) {
  return new Promise((resolve) => {
    const dlg = document.createElement('dialog');
    dlg.className = 'chooser';
    dlg.innerHTML = `<p>${esc(t('chooser.question'))}</p>${options
      .map((m, i) => `<button type="button" data-i="${i}">${esc(m.label || m.action)}</button>`)
      .join('')}<button type="button" class="ghost" data-i="-1">${esc(t('chooser.cancel'))}</button>`;
    dlg.addEventListener('click', (e) => {
      const i = e.target.dataset?.i;
      if (i === undefined) return;
      dlg.close();
      dlg.remove();
      resolve(options[Number(i)] || null);
    });
    document.body.append(dlg);
    dlg.showModal();
  });
}
