// One game on screen: the board, the players, the move list with replay,
// and the controls. Live through the game's WebSocket; moves are posted.
import { api, mySeats, invites, rememberSeat, forgetSeat, playerName, refusal, refusalText } from './api.js';
import { BoardView } from './board.js';
import { boardFor } from './boards/index.js';
import { sounds } from './sound.js';
import { esc, levelLabel, gameText, sideLabel, replayKey } from './util.js';
import { verdict } from './hint.js';
import { chart, summary, MARKS } from './analysis.js';
import { boardLink } from './analysisboard.js';
import { t, hasKey, translateStatic } from './i18n.js';
import { ChatPanel } from './chat.js';
import { Clocks } from './clock.js';
import { isGuided, guideOn, setGuideOn, recent, happened, suggest, words } from './guide.js';

const narrow = window.matchMedia('(max-width: 760px)');

export class GamePage {
  constructor(main, id, token, toast) {
    this.main = main;
    this.id = id;
    this.token = token;
    this.toast = toast;
    this.g = null;
    this.viewPly = null; // null = live
    this.steps = []; // the actions the next board drawing animates
    this.hint = null;
    this.flip = null;
    this.level = 2;
    this.closed = false;
    this.down = false; // the live channel is lost and being reopened
    this.onKey = (e) => this.key(e);
    this.clocks = new Clocks();
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
    this.clocks.mine = (seat) => seat in this.mine();
    this.clocks.start(this.main);
    // Someone away may become claimable without any update: look again.
    this.awayTimer = setInterval(() => {
      const s = this.g?.state;
      if (s && !s.result && s.away?.some((x) => x !== null)) this.render();
    }, 5000);
    this.apply(snap, false);
    this.connect();
    document.addEventListener('keydown', this.onKey);
    narrow.addEventListener?.('change', this.onResize = () => this.render());
  }

  close() {
    this.closed = true;
    this.clocks.stop();
    clearInterval(this.awayTimer);
    clearTimeout(this.backTimer);
    document.title = t('app.title');
    this.ws?.close();
    document.removeEventListener('keydown', this.onKey);
    narrow.removeEventListener?.('change', this.onResize);
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${this.id}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      if (!this.down) return;
      this.down = false;
      this.showConnection(true);
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'snapshot' || msg.type === 'update') this.apply(msg, msg.type === 'update');
      else if (msg.type === 'chat') this.chat?.add(msg);
      // The AI seat waits for a worker behind other games' moves.
      else if (msg.type === 'queue') this.toast(t('status.aiQueue', { n: msg.ahead }));
      // A request sent on the channel was refused: said as an HTTP refusal is.
      else if (msg.type === 'error') this.refuse(refusal(msg, msg.status));
    };
    ws.onclose = () => {
      if (this.closed) return;
      if (!this.down) { this.down = true; this.showConnection(false); }
      setTimeout(() => !this.closed && this.connect(), 1000);
    };
  }

  apply(msg, live) {
    const before = this.g;
    const history = before && msg.from > 0 ? before.history.slice(0, msg.from).concat(msg.history) : msg.history;
    // What was just played: an update that continues the history we hold
    // (the first move too); a take-back rewrites it, and announces nothing.
    const fresh = live && before && msg.from === before.history.length ? msg.history : [];
    // Animate what was just played onto the live board (not a take-back).
    const follows = live && this.viewPly === null && before && msg.from === before.history.length;
    this.steps = follows ? msg.history.filter((e) => e.actor !== null).map((e) => e.text) : [];
    this.g = { ...msg, history };
    this.clocks.update(msg.state.clock);
    this.notifyTurn(before, msg);
    // A snapshot says which seats this browser's session plays, and the chat it may read.
    if (!live && (msg.state.result || msg.state.imported) && !this.analysis && !this.analysisWait) {
      this.loadAnalysis(false);
    }
    if (!live) {
      this.you = msg.you || [];
      this.chat?.reset(msg.chat || [], this.you.length > 0);
    }
    if (live && fresh.length) { this.hint = null; this.refuse(null); }
    if (live) this.announce(fresh.filter((e) => e.actor !== null));
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
      <section class="game${this.module.wide ? ' wide' : ''}">
        <div class="board-area">
          <p class="banner conn" role="status" hidden></p>
          <p class="banner watching" hidden></p>
          <p class="banner imported" hidden></p>
          <div class="over-panel" hidden></div>
          <div class="level-tabs" role="tablist" hidden></div>
          <button type="button" class="level-note ghost" hidden></button>
          <div class="board-host" id="board"></div>
          <p class="refusal" role="alert" hidden></p>
          <section class="guide" hidden data-i18n-attr="aria-label:guide.title">
            <label class="guide-switch"><input type="checkbox" role="switch"> <span data-i18n="guide.switch"></span></label>
            <div class="guide-body" aria-live="polite">
              <ul class="guide-said"></ul>
              <p class="guide-look"></p>
            </div>
          </section>
          <div class="under">
            <div class="extra"></div>
            <div class="buttons"></div>
          </div>
          <section class="analysis-host" hidden>
            <p class="analysis-status" aria-live="polite"></p>
            <div class="analysis-graph"></div>
            <ul class="analysis-summary"></ul>
          </section>
          <p class="sr-only announce" aria-live="polite"></p>
        </div>
        <aside class="panel">
          <h1 class="game-title"></h1>
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
    this.el('#board').addEventListener('selectionchange', (e) => {
      this.tabs();
      if (e.detail) this.refuse(null);
    });
    // A tap on a pawn that may not move: the game's reason, when its module knows one.
    this.el('#board').addEventListener('stuck', (e) => {
      const why = this.module.whyStuck?.(e.detail.key, this.g.state.legal, e.detail.model);
      if (why) this.say(why);
    });
    this.el('.replay').addEventListener('click', (e) => {
      const nav = e.target.dataset?.nav;
      if (nav) this.nav(nav);
    });
    // A point of the analysis chart: the position before that action.
    this.el('.analysis-host').addEventListener('click', (e) => {
      const at = e.target.closest('[data-ply]');
      if (at) this.seek(Number(at.dataset.ply));
    });
    this.el('.analysis-host').addEventListener('keydown', (e) => {
      const at = e.target.closest('[data-ply]');
      if (at && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); this.seek(Number(at.dataset.ply)); }
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
    this.el('.over-panel').addEventListener('click', (e) => {
      const act = e.target.closest('button')?.dataset.act;
      if (act) this.control(act);
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
    this.el('.guide input').addEventListener('change', (e) => {
      setGuideOn(e.target.checked);
      this.showGuide(this.frame());
    });
    this.el('.level-note').addEventListener('click', (e) => {
      this.level = Number(e.currentTarget.dataset.level);
      this.render();
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
      this.refuse(null);
    } catch (err) {
      sounds.error();
      this.refuse(err, action);
    }
  }

  /**
   * Say near the board why the server refused (`err`) the `action`, in the
   * user's words: the game's own reason when its board module can tell
   * (a compulsory capture), else the refusal's. `null` clears it.
   */
  refuse(err, action = null) {
    const box = this.el('.refusal');
    if (!box) return;
    if (!err) { box.hidden = true; box.textContent = ''; return; }
    const vars = { ...err.vars };
    if (vars.side) vars.side = sideLabel(this.g.game, vars.side);
    // Pieces named by their letter (Dragonchess), in the user's words.
    for (const k of ['piece', 'written']) if (vars[k]) vars[k] = this.module.pieceName?.(vars[k]) ?? vars[k];
    let why = null;
    if (err.code === 'illegal_move' && action) {
      try {
        why = this.module.explain(action, this.g.state.legal, this.module.parse(this.g.state.position));
      } catch { /* the server's words then */ }
    }
    this.say(why ?? refusalText(err.code, vars, err.message));
  }

  /** Show `text` near the board, where refusals are said. */
  say(text) {
    const box = this.el('.refusal');
    box.textContent = text;
    box.hidden = false;
  }

  /** The live channel is lost (`back` false) or open again (`back` true). */
  showConnection(back) {
    const box = this.el('.banner.conn');
    clearTimeout(this.backTimer);
    box.textContent = back ? t('connection.back') : t('connection.lost');
    box.classList.toggle('bad', !back);
    box.dataset.state = back ? 'back' : 'down';
    box.hidden = false;
    if (back) this.backTimer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  /** Tell screen readers what was just played. */
  announce(entries) {
    if (!entries.length) return;
    const byActor = [];
    for (const e of entries) {
      const last = byActor[byActor.length - 1];
      if (last && last.actor === e.actor) last.acts.push(e.text); else byActor.push({ actor: e.actor, acts: [e.text] });
    }
    this.el('.announce').textContent = byActor
      .map((b) => t('announce.played', { side: this.sideName(b.actor), actions: b.acts.join(', ') })).join(' ');
  }

  /**
   * The game's analysis: asked for (`ask`) or only looked up; while it
   * waits, looked at again every second.
   */
  async loadAnalysis(ask) {
    clearTimeout(this.analysisTimer);
    if (!this.el('.analysis-host')?.isConnected) return; // the page was left
    try {
      const a = await api(`/api/games/${this.id}/analysis`, ask ? {} : undefined);
      if (a.status === 'done') {
        this.analysis = a;
        this.analysisWait = null;
      } else {
        this.analysisWait = a;
        this.analysisTimer = setTimeout(() => this.loadAnalysis(false), 1000);
      }
    } catch (e) {
      this.analysisWait = null;
      if (ask) this.refuse(e);
    }
    this.render();
  }

  async control(act) {
    const id = this.id;
    if (act === 'analyse') { this.loadAnalysis(true); return; }
    if (act === 'board') { location.hash = boardLink(this.g.spec, this.frame().pos); return; }
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
        const value = h.ranked.find(([a]) => a === h.action)?.[1] ?? 1 / this.g.state.players.length;
        const says = t('hint.says', { action: h.action, verdict: t(`hint.verdict.${verdict(value, this.g.state.players.length)}`) });
        const others = h.ranked.map(([a]) => a).filter((a) => a !== h.action).slice(0, 2);
        this.toast(others.length ? `${says} ${t('hint.others', { actions: others.join(', ') })}` : says);
        this.render();
        return;
      }
      if (act === 'resign' && !confirm(t('confirm.resign'))) return;
      if (act === 'leave' && !confirm(t('confirm.leave'))) return;
      if (act === 'rematch' || act === 'gorematch') return this.rematch();
      if (act === 'claim' || act === 'claimdraw') {
        await api(`/api/games/${id}/claim`, { token: this.anyToken(), draw: act === 'claimdraw' });
        return;
      }
      const token = act === 'undo' ? this.undoToken() : this.anyToken();
      const body = { token };
      if (act === 'decline') body.accept = false;
      await api(`/api/games/${id}/${act === 'decline' ? 'draw' : act}`, body);
      if (act === 'leave') for (const [seat, held] of Object.entries(this.mine())) if (held === token) forgetSeat(id, seat);
      this.viewPly = null;
      this.render();
    } catch (err) {
      sounds.error();
      this.refuse(err);
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
    // One step forward slides its piece; a jump further just shows the position.
    const shown = this.viewPly ?? n;
    const entry = this.g.history[shown];
    this.steps = p === shown + 1 && entry.actor !== null ? [entry.text] : [];
    this.viewPly = p === n ? null : p;
    this.render();
  }

  key(e) {
    const step = replayKey(e);
    if (step) { e.preventDefault(); this.nav(step); }
  }

  sideName(seat) {
    const side = this.g.state.players[seat]?.side;
    return side === undefined ? t('game.seat', { n: seat + 1 }) : sideLabel(this.g.game, side);
  }

  statusText() {
    const s = this.g.state;
    if (s.result) {
      const how = this.howText(s.result);
      return how ? t('status.how', { ending: this.endingText(s.result), how }) : this.endingText(s.result);
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
      who: this.whoActed(),
      turn: new Set(this.lastTurn(ply)),
      pos: ply === 0 ? g.start : g.history[ply - 1].pos,
      myTurn: live && this.turnToken() !== undefined && !s.thinking,
    };
  }

  /**
   * The history indexes of the last turn up to `ply`: the last player's run
   * of actions with the rolls inside it (a Phylde turn of five moves, a
   * Stelpur roll and its die-uses); in a game of three where I play, every
   * action since my own last one. Rolls after it belong to the next turn.
   */
  lastTurn(ply) {
    const h = this.g.history;
    const who = this.whoActed();
    const mine = this.mine();
    let i = ply - 1;
    while (i >= 0 && h[i].actor === null) i--;
    if (i < 0) return [];
    const actor = h[i].actor;
    // A seat held by this browser's session has the token '' (falsy): ask `in`.
    const sinceMine = this.g.num_players > 2 && Object.keys(mine).length > 0 && !(actor in mine);
    const out = new Set();
    for (; i >= 0; i--) {
      const a = who[i];
      if (a === null) { // a roll of unknown thrower: part of the turn it opens
        if (out.has(i + 1)) out.add(i);
        continue;
      }
      if (h[i].actor === null && !sinceMine && a !== actor) continue; // another side's empty roll
      if (sinceMine ? a in mine && h[i].actor !== null : a !== actor) break;
      out.add(i);
    }
    return [...out].sort((x, y) => x - y);
  }

  /**
   * Who made each history entry: its actor, or for a roll the side the
   * position before it has to move (the thrower), when the game says so.
   */
  whoActed() {
    const g = this.g;
    if (this.whoCache?.history === g.history) return this.whoCache.who;
    const who = g.history.map((e, i) => {
      if (e.actor !== null) return e.actor;
      try {
        const toMove = this.module.parse(i === 0 ? g.start : g.history[i - 1].pos).toMove;
        return Number.isInteger(toMove) && toMove >= 0 && toMove < g.num_players ? toMove : null;
      } catch { return null; }
    });
    this.whoCache = { history: g.history, who };
    return who;
  }

  render() {
    if (!this.g) return;
    const f = this.frame();
    this.tagSection(f);
    this.showBanners(f);
    this.showOver(f);
    this.showBoard(f);
    this.showUnderBoard(f);
    this.showGuide(f);
    this.showPlayers(f);
    this.showStatus(f);
    this.showControls(f);
    this.showMoveList(f);
    this.showAnalysis(f);
    this.showLinks(f);
  }

  /** The analysis under the board: the chart, each side's accuracy. */
  showAnalysis({ g, ply }) {
    const host = this.el('.analysis-host');
    const a = this.analysis;
    const wait = this.analysisWait;
    host.hidden = !a && !wait;
    this.el('.analysis-status').textContent = wait ? t('analysis.waiting', { done: wait.done, total: wait.total }) : '';
    const names = g.state.players.map((p) => this.sideName(p.seat));
    this.el('.analysis-graph').innerHTML = a ? chart(a, ply, names, g.history.map((e) => e.actor)) : '';
    this.el('.analysis-summary').innerHTML = a ? summary(a, names) : '';
  }

  /** The engine's better action in the shown position, when the one played there was marked. */
  betterMove(ply) {
    const p = this.analysis?.plies[ply];
    return p?.class && p.best ? p.best : null;
  }

  /** Data attributes for styles and tests: the game, whose turn, the ply. */
  tagSection({ g, s, n, myTurn }) {
    const section = this.el('.game');
    section.dataset.game = g.game;
    section.dataset.turn = s.result ? 'over' : myTurn ? 'mine' : 'other';
    section.dataset.ply = String(n);
  }

  showBoard({ g, s, pos, ply, live, last, turn, myTurn }) {
    const level = this.module.levels && narrow.matches ? this.level : 0;
    const lastEntries = [...turn].map((i) => g.history[i]).filter((e) => e.actor !== null);
    const lastActions = lastEntries.map((e) => e.text);
    // The levels the last turn touched, and the King's in check (phone tabs).
    this.lastLevels = new Set(lastActions.flatMap((a) => {
      const at = this.module.locate(a);
      return at ? [at.from[0], at.to[0]] : [];
    }));
    this.checkLevel = null;
    if (last?.check) {
      try { this.checkLevel = this.module.kingToMove?.(this.module.parse(pos))?.[0] ?? null; } catch { /* no mark */ }
    }
    this.board.show({
      pos,
      legal: myTurn ? s.legal : [],
      routes: myTurn ? s.routes || {} : {},
      last: lastActions,
      lastRoutes: lastEntries.map((e) => e.route || []).filter((r) => r.length),
      hint: live ? this.hint : this.betterMove(ply),
      check: !!last?.check,
      view: { flip: this.flipped(), turn: this.zoneTurn(), level, narrow: narrow.matches },
      steps: this.steps,
    });
    this.steps = [];
    this.tabs();
    this.levelNote(lastEntries, level);
  }

  /**
   * Phones show one Dragonchess level: a move another player just made on
   * another level is said in words, with a button that shows that level.
   */
  levelNote(entries, level) {
    const note = this.el('.level-note');
    const mine = this.mine();
    const away = entries.filter((e) => !(e.actor in mine)).map((e) => ({ e, at: this.module.locate(e.text) }))
      .filter(({ at }) => at && Number(at.to[0]) !== level).pop();
    note.hidden = !level || !away;
    if (note.hidden) return;
    const n = Number(away.at.to[0]);
    note.dataset.level = String(n);
    note.textContent = t('game.otherLevel', {
      side: this.sideName(away.e.actor),
      move: this.module.describe?.(away.e.text) ?? away.e.text,
      level: this.module.levels.find((l) => l.n === n)?.name ?? n,
    });
  }

  /** Under the board: check, the game's extra facts, the action buttons. */
  showUnderBoard({ s, pos, last, myTurn }) {
    let model = null;
    try { model = this.module.parse(pos); } catch { /* shown as is */ }
    const check = last?.check ? `<strong class="check">${esc(last.mate ? t('game.checkmate') : t('game.check'))}</strong> ` : '';
    const sideOf = (seat) => this.sideName(seat);
    this.el('.extra').innerHTML = check + (model ? this.module.extra(model, this.g.spec, sideOf) : '');
    const buttons = myTurn ? s.legal.filter((a) => !this.module.locate(a)) : [];
    this.el('.buttons').innerHTML = buttons.length > 12 ? '' : buttons
      .map((a) => `<button type="button" data-action="${esc(a)}">${esc(this.module.label(a))}</button>`).join('');
    this.el('#legal-list').innerHTML = (myTurn ? s.legal : []).slice(0, 500).map((a) => `<option value="${esc(a)}">`).join('');
    this.el('.typemove').hidden = !myTurn;
  }

  /**
   * The guide of a guided first game (started from `#/learn/<game>` in
   * this browser): what was just played and what to look at, for the live
   * position; its switch is remembered for every game.
   */
  showGuide({ g }) {
    const box = this.el('.guide');
    const mine = new Set(Object.keys(this.mine()).map(Number));
    box.hidden = !mine.size || !isGuided(this.id);
    if (box.hidden) return;
    const on = guideOn();
    box.querySelector('input').checked = on;
    box.classList.toggle('off', !on);
    const body = box.querySelector('.guide-body');
    body.hidden = !on;
    if (!on) return;
    const level = (n) => this.module.levels?.find((l) => l.n === n)?.name ?? String(n);
    const tip = suggest(g.game, g, mine);
    const { said, look } = words(g.game, happened(g.game, recent(g.history, mine)), tip, {
      t, side: (seat) => this.sideName(seat), level, mine, describe: (a) => this.module.describe?.(a) ?? a,
    });
    const html = said.map((x) => `<li>${esc(x)}</li>`).join('');
    // Written only when it changes: a live region repeats what it is given.
    if (body.dataset.said !== html) { body.querySelector('.guide-said').innerHTML = html; body.dataset.said = html; }
    if (body.querySelector('.guide-look').textContent !== look) body.querySelector('.guide-look').textContent = look;
    body.dataset.look = tip.key;
  }

  showPlayers({ s }) {
    const mine = this.mine();
    this.el('.players').innerHTML = s.players.map((p) => {
      const turn = s.turn.kind === 'player' && s.turn.seat === p.seat && !s.result;
      // A person without a name is called by the side's name (the server's, in English).
      const who = p.kind === 'ai' ? levelLabel(p.level) : p.name === p.side ? this.sideName(p.seat) : p.name;
      const tags = [
        mine[p.seat] ? t('players.you') : '',
        p.kind === 'human' && !p.joined ? t('players.invited') : '',
        p.bot ? t('players.bot') : '',
        s.draw_offer.includes(p.seat) ? t('players.offersDraw') : '',
      ].filter(Boolean).map((x) => `<em>${esc(x)}</em>`).join(' ');
      const spinner = turn && s.thinking ? ` <span class="spinner" aria-label="${esc(t('players.thinking'))}"></span>` : '';
      const profile = p.user ? ` <a class="profile-link" href="#/@/${esc(p.user)}">${esc(who)}</a>` : ` ${esc(who)}`;
      return `<div class="player${turn ? ' turn' : ''}"><span class="chip p${p.seat}">${esc(this.sideName(p.seat))}</span>${profile} ${tags}${spinner} ${this.clocks.html(p.seat)}</div>`;
    }).join('');
  }

  showStatus({ g, myTurn }) {
    this.el('.status').textContent = this.statusText();
    const game = gameText(g.game, 'title', g.title);
    this.el('.game-title').textContent = game;
    document.title = myTurn ? t('app.titleMyTurn', { game }) : t('app.titleGame', { game });
  }

  /** "You are watching" when this browser holds no seat. */
  showBanners() {
    const box = this.el('.banner.watching');
    box.hidden = Object.keys(this.mine()).length > 0;
    box.textContent = t('banner.watching');
    const { imported, claim } = this.g.state;
    const note = this.el('.banner.imported');
    note.hidden = !imported;
    note.textContent = !imported ? '' : [t('banner.imported'), claim ? t('banner.claim', { claim: this.endingText(claim) }) : '']
      .filter(Boolean).join(' ');
  }

  /** How a game over on the board ended, in the game's terms (`how`), when the server says. */
  howText({ how }) {
    return how && hasKey(`over.how.${how}`) ? t(`over.how.${how}`) : null;
  }

  /** An ending (a `ResultInfo`) in words: who won or drew, and how. */
  endingText({ reason, draw, winners }) {
    if (draw) return t([`status.draw_${reason}`, 'status.draw'], { sides: winners.map((w) => this.sideName(w)).join(', ') });
    return t([`status.win_${reason}`, 'status.win'], { side: this.sideName(winners[0]) });
  }

  /** The game-over panel: who won and how, then Rematch, New game, Export. */
  showOver({ g, s, last }) {
    const box = this.el('.over-panel');
    box.hidden = !s.result;
    if (!s.result) { box.innerHTML = ''; return; }
    const { draw, winners, reason } = s.result;
    const mine = this.mine();
    const seats = Object.keys(mine).map(Number);
    const every = seats.length === g.num_players;
    let head;
    if (draw) head = t('over.draw');
    else if (seats.length && !every) head = seats.includes(winners[0]) ? t('over.youWin') : t('over.youLose');
    else head = t('over.sideWins', { side: this.sideName(winners[0]) });
    const how = reason === 'board' && last?.mate ? 'checkmate' : reason;
    const by = this.howText(s.result) ?? t([`over.by.${how}`, 'over.by.board']);
    const actions = [];
    if (seats.length) actions.push(`<button type="button" data-act="${s.rematch ? 'gorematch' : 'rematch'}">${esc(s.rematch ? t('controls.goRematch') : t('controls.rematch'))}</button>`);
    actions.push(`<a class="button ghost" href="#/new/${esc(g.game)}">${esc(t('home.newGame'))}</a>`);
    actions.push(`<a class="button ghost" href="/api/games/${esc(this.id)}/record" download>${esc(t('links.export'))}</a>`);
    // A rated game: each player's rating change, once the server has rated it.
    const diffs = (s.rating_diff || []).map((d, seat) => (d === null ? '' : `<span class="ratingdiff ${d >= 0 ? 'up' : 'down'}">${esc(this.sideName(seat))} ${d >= 0 ? '+' : ''}${d}</span>`)).join(' ');
    const rating = diffs ? `<p class="ratingdiffs">${esc(t('over.rating'))} ${diffs}</p>` : '';
    box.innerHTML = `<h2>${esc(t('over.headline', { head, by }))}</h2>${rating}<div class="row">${actions.join('')}</div>`;
  }

  /** Whether `seat` may take back now: the server's rule (crates/server round/state.rs). */
  canUndo(seat) {
    const h = this.g.history;
    let last = -1;
    for (let i = h.length - 1; i >= 0; i--) if (h[i].actor === seat) { last = i; break; }
    if (last < 0) return false;
    const players = this.g.state.players;
    const otherHumans = players.some((p) => p.seat !== seat && p.kind === 'human');
    const sinceOk = h.slice(last + 1).every((e) => e.actor === null || players[e.actor]?.kind === 'ai');
    const turn = this.g.state.turn;
    const ownTurn = last + 1 === h.length && turn.kind === 'player' && turn.seat === seat;
    return ownTurn || (!otherHumans && sinceOk);
  }

  /** A browser notification when it becomes this browser's turn while the
   * page is hidden (if the player allowed them). */
  notifyTurn(before, msg) {
    const turn = msg.state.turn;
    const was = before?.state.turn;
    const mineNow = turn.kind === 'player' && turn.seat in this.mine();
    const changed = !was || was.kind !== turn.kind || was.seat !== turn.seat;
    if (!mineNow || !changed || !document.hidden) return;
    if (!('Notification' in window) || Notification.permission !== 'granted') return;
    try { new Notification(t('app.title'), { body: t('notify.yourTurn', { game: gameText(msg.game, 'title', msg.title) }), tag: msg.id }); } catch { /* not here */ }
  }

  /** Whether another player has been away long enough to claim the game
   * (the server decides; this only shows the buttons): 2 minutes without a
   * clock, the days of a correspondence control; never in real time. */
  claimable(s, mine) {
    const control = s.clock?.control;
    if (control && !('days' in control)) return false;
    const limit = control ? control.days * 86_400_000 : 120_000;
    const now = Date.now() + this.clocks.serverSkew;
    return s.players.some((p) => p.kind === 'human' && !(p.seat in mine)
      && (s.away?.[p.seat] ?? null) !== null && now >= s.away[p.seat] + limit);
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
    if (playing && Object.keys(mine).some((seat) => this.canUndo(Number(seat)))) ctl.push(['undo', t('controls.undo')]);
    if (playing && vsOthers) ctl.push(['draw', othersOffer ? t('controls.acceptDraw') : t('controls.offerDraw')]);
    if (playing && othersOffer) ctl.push(['decline', t('controls.declineDraw')]);
    if (playing && g.num_players === 2) ctl.push(['resign', t('controls.resign')]);
    if (playing && g.num_players > 2) ctl.push(['leave', t('controls.leave')]);
    if (playing && this.claimable(s, mine)) {
      ctl.push(['claim', t('controls.claimWin')]);
      if (g.num_players === 2) ctl.push(['claimdraw', t('controls.claimDraw')]);
    }
    if ((s.result || s.imported) && !this.analysis && !this.analysisWait) ctl.push(['analyse', t('controls.analyse')]);
    // The shown position on the analysis board: once the game is over, or
    // where the engine's help is allowed anyway (hints), not to a player
    // mid-game.
    if (s.result || s.imported || s.hints) ctl.push(['board', t('analysis.board.open')]);
    ctl.push(['flip', t('controls.flip')]);
    if (this.module.zoomable && narrow.matches) ctl.push(['zoom', this.zoom ? t('controls.zoomOut') : t('controls.zoomIn')]);
    this.el('.controls').innerHTML = ctl.map(([a, text]) => `<button type="button" data-act="${a}">${esc(text)}</button>`).join('');
  }

  /** One row per turn: the roll(s) before it, then the player's actions. */
  /**
   * One row per turn, named by its player: the side's rolls and actions in
   * a row (a roll whose thrower the game does not say opens the next row).
   */
  showMoveList({ g, n, ply, live, who, turn }) {
    this.el('.plyinfo').textContent = live ? t('moves.ply', { n }) : t('moves.plyOf', { ply, n });
    const rows = [];
    let row = null;
    let rolls = [];
    g.history.forEach((e, i) => {
      const cls = `${i + 1 === ply ? ' at' : ''}${turn.has(i) ? ' turn' : ''}`;
      const chance = e.actor === null;
      const text = chance
        ? `<span data-ply="${i + 1}" class="act chance${cls}" tabindex="-1">${esc(t('moves.roll', { dice: e.text }))}</span>`
        : `<span data-ply="${i + 1}" class="act${cls}" tabindex="-1">${esc(e.text)}${this.markOf(i)}</span>`;
      if (who[i] === null) { rolls.push(text); return; }
      if (!row || row.actor !== who[i] || rolls.length) {
        row = { actor: who[i], acts: [] };
        rows.push(row);
      }
      row.acts.push(...rolls, text);
      rolls = [];
    });
    if (rolls.length) rows.push({ actor: null, acts: rolls });
    const moves = this.el('.moves');
    const name = (r) => (r.actor === null ? '' : `<span class="who">${esc(this.sideName(r.actor))}</span> `);
    moves.innerHTML = rows.map((r) => `<li class="${r.actor === null ? 'chance' : `p${r.actor}`}">${name(r)}${r.acts.join(' ')}</li>`).join('');
    // Scroll the list only, never the page (the board stays in view).
    const at = moves.querySelector('.at');
    if (at) moves.scrollTop = at.offsetTop - moves.clientHeight / 2;
    else moves.scrollTop = moves.scrollHeight;
  }

  /** The analysis's mark of action `i` in the move list (`?!`, `?`, `??`). */
  markOf(i) {
    const c = this.analysis?.plies[i]?.class;
    return c ? `<abbr class="mark ${c}" title="${esc(t(`analysis.class.${c}`))}">${MARKS[c]}</abbr>` : '';
  }

  /** Invite and watch links, the record, the rules. */
  showLinks({ g }) {
    const origin = `${location.origin}${location.pathname}`;
    const field = (text, url) => `<label>${esc(text)} <input readonly value="${esc(url)}"></label>`;
    const links = Object.entries(invites(this.id))
      .map(([seat, tok]) => field(t('links.invite', { side: this.sideName(Number(seat)) }), `${origin}#/game/${this.id}?t=${tok}`));
    links.push(field(t('links.watch'), `${origin}#/game/${this.id}`));
    links.push(`<a class="button ghost" href="/api/games/${this.id}/record" download>${esc(t('links.export'))}</a> <a class="button ghost" href="#/rules/${esc(g.game)}">${esc(t('links.rules'))}</a> <a class="button ghost" href="#/learn/${esc(g.game)}">${esc(t('home.learn'))}</a>`);
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
      const n = String(l.n);
      const dot = targets.has(n) ? ' •' : '';
      const movable = from.has(n) ? ' movable' : '';
      const lastHere = this.lastLevels?.has(n) ? ' lastmove' : '';
      const check = this.checkLevel === n ? ' incheck' : '';
      const notes = [lastHere && t('game.tabLastMove'), check && t('game.tabCheck')].filter(Boolean)
        .map((x) => `<span class="sr-only"> (${esc(x)})</span>`).join('');
      return `<button type="button" role="tab" data-level="${l.n}" aria-selected="${l.n === this.level}" class="${l.n === this.level ? 'on' : ''}${movable}${lastHere}${check}">${l.n} ${esc(l.name)}${dot}${notes}</button>`;
    }).join('');
  }
}
