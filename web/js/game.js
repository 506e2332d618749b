// One game on screen: the board, the players, the move list with replay,
// and the controls. Live through the game's WebSocket; moves are posted.
import { api, mySeats, invites, rememberSeat, forgetSeat, playerName } from './api.js';
import { BoardView } from './board.js';
import { boardFor } from './boards/index.js';
import { sounds } from './sound.js';
import { esc, levelLabel } from './util.js';
import { t, translateStatic } from './i18n.js';
import { ChatPanel } from './chat.js';

const narrow = window.matchMedia('(max-width: 760px)');

export class GamePage {
  constructor(main, id, token, toast) {
    this.main = main;
    this.id = id;
    this.token = token;
    this.toast = toast;
    this.g = null;
    this.viewPly = null; // null = live
    this.hint = null;
    this.flip = null;
    this.level = 2;
    this.closed = false;
    this.onKey = (e) => this.key(e);
  }

  async open() {
    if (this.token) {
      const r = await api(`/api/games/${this.id}/join`, { token: this.token, name: playerName() || undefined });
      // Claiming an invite gives the seat a new token (the link is spent).
      rememberSeat(this.id, r.seat, r.token || this.token);
      history.replaceState(null, '', `#/game/${this.id}`);
    }
    const snap = await api(`/api/games/${this.id}`);
    this.module = boardFor(snap.game);
    this.layout();
    this.chat = new ChatPanel(this.main.querySelector('.chat-host'), this.id, this.toast);
    this.apply(snap, false);
    this.connect();
    document.addEventListener('keydown', this.onKey);
    narrow.addEventListener?.('change', this.onResize = () => this.render());
  }

  close() {
    this.closed = true;
    document.title = t('app.title');
    this.ws?.close();
    document.removeEventListener('keydown', this.onKey);
    narrow.removeEventListener?.('change', this.onResize);
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${this.id}/ws`);
    this.ws = ws;
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'snapshot' || msg.type === 'update') this.apply(msg, msg.type === 'update');
      else if (msg.type === 'chat') this.chat?.add(msg);
      // The AI seat waits for a worker behind other games' moves.
      else if (msg.type === 'queue') this.toast(t('status.aiQueue', { n: msg.ahead }));
    };
    ws.onclose = () => {
      if (!this.closed) setTimeout(() => !this.closed && this.connect(), 1000);
    };
  }

  apply(msg, live) {
    const before = this.g;
    const history = before && msg.from > 0 ? before.history.slice(0, msg.from).concat(msg.history) : msg.history;
    const fresh = msg.from === 0 ? [] : msg.history;
    this.g = { ...msg, history };
    // A snapshot says which seats this browser's session plays, and the chat it may read.
    if (!live) {
      this.you = msg.you || [];
      this.chat?.reset(msg.chat || [], this.you.length > 0);
    }
    if (live && fresh.length) this.hint = null;
    if (live) {
      for (const e of fresh) {
        if (e.actor === null) sounds.dice();
        else if (e.capture) sounds.capture();
        else sounds.move();
      }
      if (msg.state.result && !before?.state.result) sounds.end();
    }
    if (this.viewPly !== null && this.viewPly > history.length) this.viewPly = null;
    this.render();
  }

  /** Seats this browser plays: {seat: token}; '' = by its session (cookie). */
  mine() {
    const bySession = Object.fromEntries((this.you || []).map((s) => [s, '']));
    return { ...bySession, ...mySeats(this.id) };
  }

  /** The token of the seat to move, if this browser plays it. */
  turnToken() {
    const turn = this.g.state.turn;
    return turn.kind === 'player' ? this.mine()[turn.seat] : undefined;
  }

  anyToken() {
    const m = this.mine();
    const turn = this.g.state.turn;
    return (turn.kind === 'player' && m[turn.seat]) || Object.values(m)[0];
  }

  layout() {
    this.main.innerHTML = `
      <section class="game">
        <div class="board-area">
          <div class="level-tabs" role="tablist" hidden></div>
          <div class="board-host" id="board"></div>
          <div class="under">
            <div class="extra"></div>
            <div class="buttons"></div>
          </div>
        </div>
        <aside class="panel">
          <div class="players"></div>
          <p class="status" aria-live="polite"></p>
          <div class="controls row"></div>
          <div class="replay row">
            <button type="button" data-nav="first" data-i18n-attr="title:replay.first">|◀</button>
            <button type="button" data-nav="prev" data-i18n-attr="title:replay.prev">◀</button>
            <span class="plyinfo"></span>
            <button type="button" data-nav="next" data-i18n-attr="title:replay.next">▶</button>
            <button type="button" data-nav="last" data-i18n-attr="title:replay.last">▶|</button>
          </div>
          <ol class="moves" data-i18n-attr="aria-label:moves.label"></ol>
          <section class="chat-host"></section>
          <form class="typemove row">
            <input list="legal-list" data-i18n-attr="placeholder:typeMove.placeholder;aria-label:typeMove.label" autocomplete="off">
            <datalist id="legal-list"></datalist>
            <button type="submit" data-i18n="typeMove.play"></button>
          </form>
          <div class="links"></div>
        </aside>
      </section>`;
    translateStatic(this.main);
    this.el = (sel) => this.main.querySelector(sel);
    this.board = new BoardView(this.el('#board'), this.module, (a) => this.play(a));
    this.el('#board').addEventListener('selectionchange', () => this.tabs());
    this.el('.replay').addEventListener('click', (e) => {
      const nav = e.target.dataset?.nav;
      if (nav) this.nav(nav);
    });
    this.el('.moves').addEventListener('click', (e) => {
      const act = e.target.closest('[data-ply]');
      if (act) this.seek(Number(act.dataset.ply));
    });
    this.el('.typemove').addEventListener('submit', (e) => {
      e.preventDefault();
      const input = this.el('.typemove input');
      if (input.value.trim()) this.play(input.value.trim());
      input.value = '';
    });
    this.el('.controls').addEventListener('click', (e) => {
      const act = e.target.closest('button')?.dataset.act;
      if (act) this.control(act);
    });
    this.el('.buttons').addEventListener('click', (e) => {
      const a = e.target.closest('button')?.dataset.action;
      if (a) this.play(a);
    });
    // The link fields select their text on a click (no inline handler: the
    // Content-Security-Policy forbids them).
    this.el('.links').addEventListener('click', (e) => {
      if (e.target.matches('input[readonly]')) e.target.select();
    });
    this.el('.level-tabs').addEventListener('click', (e) => {
      const l = e.target.closest('button')?.dataset.level;
      if (l) { this.level = Number(l); this.render(); }
    });
  }

  async play(action) {
    const token = this.turnToken();
    if (token === undefined || this.viewPly !== null) return;
    try {
      await api(`/api/games/${this.id}/move`, { token, action, ply: this.g.state.ply });
    } catch (err) {
      sounds.error();
      this.toast(err.message, true);
    }
  }

  async control(act) {
    const id = this.id;
    try {
      if (act === 'flip') {
        if (this.g.num_players > 2) this.turn = (this.zoneTurn() + 1) % this.g.num_players;
        else this.flip = !this.flipped();
        this.render();
        return;
      }
      if (act === 'zoom') {
        this.zoom = !this.zoom;
        this.el('#board').classList.toggle('zoom', this.zoom);
        this.render();
        return;
      }
      if (act === 'hint') {
        this.el('.status').textContent = t('hint.thinking');
        const h = await api(`/api/games/${id}/hint`, { token: this.turnToken() });
        this.hint = h.action;
        const best = h.ranked.slice(0, 3).map(([a, v]) => t('hint.ranked', { action: a, percent: Math.round(v * 100) })).join(', ');
        this.toast(best ? t('hint.withBest', { action: h.action, best }) : t('hint.only', { action: h.action }));
        this.render();
        return;
      }
      if (act === 'resign' && !confirm(t('confirm.resign'))) return;
      if (act === 'leave' && !confirm(t('confirm.leave'))) return;
      if (act === 'rematch' || act === 'gorematch') return this.rematch();
      const token = act === 'undo' ? this.undoToken() : this.anyToken();
      const body = { token };
      if (act === 'decline') body.accept = false;
      await api(`/api/games/${id}/${act === 'decline' ? 'draw' : act}`, body);
      if (act === 'leave') for (const [seat, held] of Object.entries(this.mine())) if (held === token) forgetSeat(id, seat);
      this.viewPly = null;
      this.render();
    } catch (err) {
      sounds.error();
      this.toast(err.message, true);
    }
  }

  /** Take back for the seat of mine that acted last. */
  undoToken() {
    const mine = this.mine();
    for (let i = this.g.history.length - 1; i >= 0; i--) {
      const a = this.g.history[i].actor;
      if (a !== null && mine[a]) return mine[a];
    }
    return this.anyToken();
  }

  async rematch() {
    const token = this.anyToken();
    const r = await api(`/api/games/${this.id}/rematch`, { token });
    for (const token of Object.values(this.mine())) {
      const j = await api(`/api/games/${r.id}/join`, { token, name: playerName() || undefined });
      rememberSeat(r.id, j.seat, token);
    }
    location.hash = `#/game/${r.id}`;
  }

  flipped() {
    if (this.flip !== null) return this.flip;
    const seats = Object.keys(this.mine()).map(Number);
    return this.g.num_players === 2 && seats.length === 1 && seats[0] === 1;
  }

  /** Three players: whose corner is drawn at the bottom right (mine). */
  zoneTurn() {
    if (this.turn !== undefined) return this.turn;
    const seats = Object.keys(this.mine()).map(Number);
    return seats.length === 1 ? seats[0] : 1;
  }

  nav(where) {
    const n = this.g.history.length;
    const at = this.viewPly ?? n;
    const to = { first: 0, prev: at - 1, next: at + 1, last: n }[where];
    this.seek(to);
  }

  seek(ply) {
    const n = this.g.history.length;
    const p = Math.max(0, Math.min(n, ply));
    this.viewPly = p === n ? null : p;
    this.render();
  }

  key(e) {
    if (e.target.closest?.('input, textarea, select')) return;
    const map = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };
    if (map[e.key] && !e.target.closest?.('[data-key]')) { e.preventDefault(); this.nav(map[e.key]); }
  }

  sideName(seat) {
    return this.g.state.players[seat]?.side ?? t('game.seat', { n: seat + 1 });
  }

  statusText() {
    const s = this.g.state;
    if (s.result) {
      const { reason, draw, winners } = s.result;
      if (draw) return t([`status.draw_${reason}`, 'status.draw'], { sides: winners.map((w) => this.sideName(w)).join(', ') });
      return t([`status.win_${reason}`, 'status.win'], { side: this.sideName(winners[0]) });
    }
    if (s.turn.kind !== 'player') return t('status.rolling');
    const side = this.sideName(s.turn.seat);
    if (s.thinking) return t('status.thinking', { side });
    if (this.turnToken() !== undefined) return t('status.yourMove', { side });
    return t('status.waiting', { side });
  }

  /** What the page shows now: the live position or a replayed one. */
  frame() {
    const g = this.g;
    const s = g.state;
    const n = g.history.length;
    const ply = this.viewPly ?? n;
    const live = this.viewPly === null;
    let last = null; // the last player action up to the shown ply
    for (let i = ply - 1; i >= 0; i--) if (g.history[i].actor !== null) { last = g.history[i]; break; }
    return {
      g, s, n, ply, live, last,
      pos: ply === 0 ? g.start : g.history[ply - 1].pos,
      myTurn: live && this.turnToken() !== undefined && !s.thinking,
    };
  }

  render() {
    if (!this.g) return;
    const f = this.frame();
    this.tagSection(f);
    this.showBoard(f);
    this.showUnderBoard(f);
    this.showPlayers(f);
    this.showStatus(f);
    this.showControls(f);
    this.showMoveList(f);
    this.showLinks(f);
  }

  /** Data attributes for styles and tests: the game, whose turn, the ply. */
  tagSection({ g, s, n, myTurn }) {
    const section = this.el('.game');
    section.dataset.game = g.game;
    section.dataset.turn = s.result ? 'over' : myTurn ? 'mine' : 'other';
    section.dataset.ply = String(n);
  }

  showBoard({ s, pos, live, last, myTurn }) {
    const level = this.module.levels && narrow.matches ? this.level : 0;
    this.board.show({
      pos,
      legal: myTurn ? s.legal : [],
      last: last?.text ?? null,
      hint: live ? this.hint : null,
      check: !!last?.check,
      view: { flip: this.flipped(), turn: this.zoneTurn(), level, narrow: narrow.matches },
    });
    this.tabs();
  }

  /** Under the board: check, the game's extra facts, the action buttons. */
  showUnderBoard({ s, pos, last, myTurn }) {
    let model = null;
    try { model = this.module.parse(pos); } catch { /* shown as is */ }
    const check = last?.check ? `<strong class="check">${esc(last.mate ? t('game.checkmate') : t('game.check'))}</strong> ` : '';
    this.el('.extra').innerHTML = check + (model ? this.module.extra(model, this.g.spec) : '');
    const buttons = myTurn ? s.legal.filter((a) => !this.module.locate(a)) : [];
    this.el('.buttons').innerHTML = buttons.length > 12 ? '' : buttons
      .map((a) => `<button type="button" data-action="${esc(a)}">${esc(this.module.label(a))}</button>`).join('');
    this.el('#legal-list').innerHTML = (myTurn ? s.legal : []).slice(0, 500).map((a) => `<option value="${esc(a)}">`).join('');
    this.el('.typemove').hidden = !myTurn;
  }

  showPlayers({ s }) {
    const mine = this.mine();
    this.el('.players').innerHTML = s.players.map((p) => {
      const turn = s.turn.kind === 'player' && s.turn.seat === p.seat && !s.result;
      const who = p.kind === 'ai' ? levelLabel(p.level) : p.name;
      const tags = [
        mine[p.seat] ? t('players.you') : '',
        p.kind === 'human' && !p.joined ? t('players.invited') : '',
        s.draw_offer.includes(p.seat) ? t('players.offersDraw') : '',
      ].filter(Boolean).map((x) => `<em>${esc(x)}</em>`).join(' ');
      const spinner = turn && s.thinking ? ` <span class="spinner" aria-label="${esc(t('players.thinking'))}"></span>` : '';
      return `<div class="player${turn ? ' turn' : ''}"><span class="chip p${p.seat}">${esc(p.side)}</span> ${esc(who)} ${tags}${spinner}</div>`;
    }).join('');
  }

  showStatus({ g, myTurn }) {
    this.el('.status').textContent = this.statusText();
    document.title = myTurn ? t('app.titleMyTurn', { game: g.title }) : t('app.titleGame', { game: g.title });
  }

  /** The buttons that fit now: hint, undo, draw, resign or leave, rematch, view. */
  showControls({ g, s, myTurn }) {
    const mine = this.mine();
    const holds = Object.keys(mine).length > 0;
    const playing = holds && !s.result;
    const vsOthers = s.players.some((p) => p.kind === 'human' && !(p.seat in mine));
    const othersOffer = s.draw_offer.some((x) => !(x in mine));
    const ctl = [];
    if (myTurn && s.hints) ctl.push(['hint', t('controls.hint')]);
    if (playing) ctl.push(['undo', t('controls.undo')]);
    if (playing && vsOthers) ctl.push(['draw', othersOffer ? t('controls.acceptDraw') : t('controls.offerDraw')]);
    if (playing && othersOffer) ctl.push(['decline', t('controls.declineDraw')]);
    if (playing && g.num_players === 2) ctl.push(['resign', t('controls.resign')]);
    if (playing && g.num_players > 2) ctl.push(['leave', t('controls.leave')]);
    if (holds && s.result) ctl.push(s.rematch ? ['gorematch', t('controls.goRematch')] : ['rematch', t('controls.rematch')]);
    ctl.push(['flip', t('controls.flip')]);
    if (this.module.zoomable && narrow.matches) ctl.push(['zoom', this.zoom ? t('controls.zoomOut') : t('controls.zoomIn')]);
    this.el('.controls').innerHTML = ctl.map(([a, text]) => `<button type="button" data-act="${a}">${esc(text)}</button>`).join('');
  }

  /** One row per turn: the roll(s) before it, then the player's actions. */
  showMoveList({ g, n, ply, live }) {
    this.el('.plyinfo').textContent = live ? t('moves.ply', { n }) : t('moves.plyOf', { ply, n });
    const rows = [];
    let row = null;
    let rolls = [];
    g.history.forEach((e, i) => {
      const cls = `${i + 1 === ply ? ' at' : ''}`;
      if (e.actor === null) {
        rolls.push(`<span data-ply="${i + 1}" class="act chance${cls}" tabindex="-1">${esc(t('moves.roll', { dice: e.text }))}</span>`);
        return;
      }
      if (!row || row.actor !== e.actor || rolls.length) {
        row = { actor: e.actor, acts: [] };
        rows.push(row);
      }
      row.acts.push(...rolls, `<span data-ply="${i + 1}" class="act${cls}" tabindex="-1">${esc(e.text)}</span>`);
      rolls = [];
    });
    if (rolls.length) rows.push({ actor: null, acts: rolls });
    const moves = this.el('.moves');
    moves.innerHTML = rows.map((r) => `<li class="${r.actor === null ? 'chance' : `p${r.actor}`}">${r.acts.join(' ')}</li>`).join('');
    // Scroll the list only, never the page (the board stays in view).
    const at = moves.querySelector('.at');
    if (at) moves.scrollTop = at.offsetTop - moves.clientHeight / 2;
    else moves.scrollTop = moves.scrollHeight;
  }

  /** Invite and watch links, the record, the rules. */
  showLinks({ g }) {
    const origin = `${location.origin}${location.pathname}`;
    const field = (text, url) => `<label>${esc(text)} <input readonly value="${esc(url)}"></label>`;
    const links = Object.entries(invites(this.id))
      .map(([seat, tok]) => field(t('links.invite', { side: this.sideName(Number(seat)) }), `${origin}#/game/${this.id}?t=${tok}`));
    links.push(field(t('links.watch'), `${origin}#/game/${this.id}`));
    links.push(`<a class="button ghost" href="/api/games/${this.id}/record" download>${esc(t('links.export'))}</a> <a class="button ghost" href="#/rules/${esc(g.game)}">${esc(t('links.rules'))}</a>`);
    this.el('.links').innerHTML = links.join('');
  }

  /** Level tabs for Dragonchess on a phone, with a dot where targets are. */
  tabs() {
    const el = this.el('.level-tabs');
    const levels = this.module.levels;
    if (!levels || !narrow.matches) { el.hidden = true; return; }
    el.hidden = false;
    const targets = new Set((this.board.moves.get(this.board.selected) || []).map((m) => m.to[0]));
    const from = new Set([...this.board.moves.keys()].map((k) => k[0]));
    el.innerHTML = levels.map((l) => {
      const dot = targets.has(String(l.n)) ? ' •' : '';
      const movable = from.has(String(l.n)) ? ' movable' : '';
      return `<button type="button" role="tab" data-level="${l.n}" aria-selected="${l.n === this.level}" class="${l.n === this.level ? 'on' : ''}${movable}">${l.n} ${esc(l.name)}${dot}</button>`;
    }).join('');
  }
}
