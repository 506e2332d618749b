// One game on screen: the board, the players, the move list with replay,
// and the controls. Live through the game's WebSocket; moves are posted.
import { api, mySeats, invites, rememberSeat, forgetSeat, playerName } from './api.js';
import { BoardView } from './board.js';
import { boardFor } from './boards/index.js';
import { sounds } from './sound.js';
import { esc } from './util.js';

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
      rememberSeat(this.id, r.seat, this.token);
      history.replaceState(null, '', `#/game/${this.id}`);
    }
    const snap = await api(`/api/games/${this.id}`);
    this.module = boardFor(snap.game);
    this.layout();
    this.apply(snap, false);
    this.connect();
    document.addEventListener('keydown', this.onKey);
    narrow.addEventListener?.('change', this.onResize = () => this.render());
  }

  close() {
    this.closed = true;
    document.title = 'Tabula';
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
    if (live && fresh.length) this.hint = null;
    if (live) {
      for (const e of fresh) {
        if (e.actor === null) sounds.dice();
        else if (/x|\*/.test(e.text)) sounds.capture();
        else sounds.move();
      }
      if (msg.state.result && !before?.state.result) sounds.end();
    }
    if (this.viewPly !== null && this.viewPly > history.length) this.viewPly = null;
    this.render();
  }

  mine() { return mySeats(this.id); }

  /** The token of the seat to move, if this browser plays it. */
  turnToken() {
    const t = this.g.state.turn;
    return t.kind === 'player' ? this.mine()[t.seat] : undefined;
  }

  anyToken() {
    const m = this.mine();
    const t = this.g.state.turn;
    return (t.kind === 'player' && m[t.seat]) || Object.values(m)[0];
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
            <button type="button" data-nav="first" title="Start (Home)">|◀</button>
            <button type="button" data-nav="prev" title="Back (←)">◀</button>
            <span class="plyinfo"></span>
            <button type="button" data-nav="next" title="Forward (→)">▶</button>
            <button type="button" data-nav="last" title="Now (End)">▶|</button>
          </div>
          <ol class="moves" aria-label="Moves"></ol>
          <form class="typemove row">
            <input list="legal-list" placeholder="type a move" aria-label="Type a move" autocomplete="off">
            <datalist id="legal-list"></datalist>
            <button type="submit">Play</button>
          </form>
          <div class="links"></div>
        </aside>
      </section>`;
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
    this.el('.level-tabs').addEventListener('click', (e) => {
      const l = e.target.closest('button')?.dataset.level;
      if (l) { this.level = Number(l); this.render(); }
    });
  }

  async play(action) {
    const token = this.turnToken();
    if (!token || this.viewPly !== null) return;
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
        this.el('.status').textContent = 'Thinking about a hint…';
        const h = await api(`/api/games/${id}/hint`, { token: this.turnToken() });
        this.hint = h.action;
        const top = h.ranked.slice(0, 3).map(([a, v]) => `${a} (${Math.round(v * 100)}%)`).join(', ');
        this.toast(`Hint: ${h.action}${top ? ` · best: ${top}` : ''}`);
        this.render();
        return;
      }
      if (act === 'resign' && !confirm('Resign this game?')) return;
      if (act === 'leave' && !confirm('Leave this game? The AI takes your seat.')) return;
      if (act === 'rematch' || act === 'gorematch') return this.rematch();
      const token = act === 'undo' ? this.undoToken() : this.anyToken();
      const body = { token };
      if (act === 'decline') body.accept = false;
      await api(`/api/games/${id}/${act === 'decline' ? 'draw' : act}`, body);
      if (act === 'leave') for (const [seat, t] of Object.entries(this.mine())) if (t === token) forgetSeat(id, seat);
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
    for (const t of Object.values(this.mine())) {
      const j = await api(`/api/games/${r.id}/join`, { token: t, name: playerName() || undefined });
      rememberSeat(r.id, j.seat, t);
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
    return this.g.state.players[seat]?.side ?? `seat ${seat + 1}`;
  }

  statusText() {
    const s = this.g.state;
    if (s.result) {
      const why = { resign: ' by resignation', agreement: ' by agreement', board: '' }[s.result.reason] || '';
      if (s.result.draw) return `Draw${why} (${s.result.winners.map((w) => this.sideName(w)).join(', ')})`;
      return `${this.sideName(s.result.winners[0])} wins${why}`;
    }
    if (s.turn.kind !== 'player') return 'Rolling…';
    const who = this.sideName(s.turn.seat);
    if (s.thinking) return `${who}: the AI is thinking…`;
    if (this.turnToken()) return `Your move (${who})`;
    return `Waiting for ${who}`;
  }

  render() {
    if (!this.g) return;
    const g = this.g;
    const s = g.state;
    const n = g.history.length;
    const ply = this.viewPly ?? n;
    const live = this.viewPly === null;
    const pos = ply === 0 ? g.start : g.history[ply - 1].pos;
    const myTurn = live && !!this.turnToken() && !s.thinking;
    const section = this.el('.game');
    section.dataset.game = g.game;
    section.dataset.turn = s.result ? 'over' : myTurn ? 'mine' : 'other';
    section.dataset.ply = String(n);
    let lastMove = null;
    for (let i = ply - 1; i >= 0; i--) if (g.history[i].actor !== null) { lastMove = g.history[i].text; break; }
    const level = this.module.levels && narrow.matches ? this.level : 0;
    const inCheck = !!lastMove && /[+#]$/.test(lastMove);
    this.board.show({
      pos,
      legal: myTurn ? s.legal : [],
      last: lastMove,
      hint: live ? this.hint : null,
      check: inCheck,
      view: { flip: this.flipped(), turn: this.zoneTurn(), level, narrow: narrow.matches },
    });
    this.tabs();
    let model = null;
    try { model = this.module.parse(pos); } catch { /* shown as is */ }
    const check = inCheck ? `<strong class="check">${lastMove.endsWith('#') ? 'Checkmate!' : 'Check!'}</strong> ` : '';
    this.el('.extra').innerHTML = check + (model && this.module.extra ? this.module.extra(model, g.spec) : '');
    const buttons = myTurn ? s.legal.filter((a) => !this.module.locate(a)) : [];
    const label = (a) => ({ end: 'End turn', pass: 'Pass' }[a] || a);
    this.el('.buttons').innerHTML = buttons.length > 12 ? '' : buttons.map((a) => `<button type="button" data-action="${esc(a)}">${esc(label(a))}</button>`).join('');
    this.el('#legal-list').innerHTML = (myTurn ? s.legal : []).slice(0, 500).map((a) => `<option value="${esc(a)}">`).join('');
    this.el('.typemove').hidden = !myTurn;

    const mine = this.mine();
    this.el('.players').innerHTML = s.players.map((p) => {
      const turn = s.turn.kind === 'player' && s.turn.seat === p.seat && !s.result;
      const who = p.kind === 'ai' ? `AI ${esc((p.level || '').replace('level', 'level '))}` : esc(p.name);
      const tags = [mine[p.seat] ? 'you' : '', p.kind === 'human' && !p.joined ? 'invited' : '', s.draw_offer.includes(p.seat) ? 'offers a draw' : '']
        .filter(Boolean).map((t) => `<em>${t}</em>`).join(' ');
      return `<div class="player${turn ? ' turn' : ''}"><span class="chip p${p.seat}">${esc(p.side)}</span> ${who} ${tags}${turn && s.thinking ? ' <span class="spinner" aria-label="thinking"></span>' : ''}</div>`;
    }).join('');
    this.el('.status').textContent = this.statusText();
    document.title = `${myTurn ? '● ' : ''}${g.title} · Tabula`;

    const holds = Object.keys(mine).length > 0;
    const over = !!s.result;
    const vsOthers = s.players.some((p) => p.kind === 'human' && !mine[p.seat]);
    const othersOffer = s.draw_offer.some((x) => !mine[x]);
    const ctl = [];
    if (myTurn) ctl.push(['hint', 'Hint']);
    if (holds && !over) ctl.push(['undo', 'Undo']);
    if (holds && !over && vsOthers) ctl.push(othersOffer ? ['draw', 'Accept draw'] : ['draw', 'Offer draw']);
    if (holds && !over && othersOffer) ctl.push(['decline', 'Decline draw']);
    if (holds && !over && g.num_players === 2) ctl.push(['resign', 'Resign']);
    if (holds && !over && g.num_players > 2) ctl.push(['leave', 'Leave']);
    if (holds && over) ctl.push(s.rematch ? ['gorematch', 'Go to the rematch'] : ['rematch', 'Rematch']);
    ctl.push(['flip', 'Flip']);
    if (this.module.zoomable && narrow.matches) ctl.push(['zoom', this.zoom ? 'Zoom out' : 'Zoom in']);
    this.el('.controls').innerHTML = ctl.map(([a, t]) => `<button type="button" data-act="${a}">${t}</button>`).join('');

    this.el('.plyinfo').textContent = live ? `ply ${n}` : `ply ${ply} of ${n}`;
    // One row per turn: the roll(s) before it, then the player's actions.
    const rows = [];
    let row = null;
    let rolls = [];
    g.history.forEach((e, i) => {
      const cls = `${i + 1 === ply ? ' at' : ''}`;
      if (e.actor === null) {
        rolls.push(`<span data-ply="${i + 1}" class="act chance${cls}" tabindex="-1">roll ${esc(e.text)}</span>`);
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

    const origin = `${location.origin}${location.pathname}`;
    const inv = invites(this.id);
    const links = Object.entries(inv).map(([seat, t]) => `<label>Invite for ${esc(this.sideName(Number(seat)))} <input readonly value="${origin}#/game/${this.id}?t=${t}" onclick="this.select()"></label>`);
    links.push(`<label>Watch link <input readonly value="${origin}#/game/${this.id}" onclick="this.select()"></label>`);
    links.push(`<a class="button ghost" href="/api/games/${this.id}/record" download>Export record</a> <a class="button ghost" href="#/rules/${g.game}">Rules</a>`);
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
      return `<button type="button" role="tab" data-level="${l.n}" aria-selected="${l.n === this.level}" class="${l.n === this.level ? 'on' : ''}${movable}">${l.n} ${l.name}${dot}</button>`;
    }).join('');
  }
}
