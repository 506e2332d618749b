// The game's clocks as the server counts them, counting down smoothly in
// between updates: each update gives every seat's time at the server's
// instant; the running seat's time is then counted down from when the
// update arrived. A new update for the same running turn never moves the
// shown time back up (no jump back); a new turn takes the server's value.
import { esc } from './util.js';
import { t } from './i18n.js';
import { sounds } from './sound.js';

/** Time controls offered (Fischer, then correspondence days). */
export const PRESETS = [[60, 0], [180, 2], [300, 3], [600, 5], [900, 10], [1800, 20]];
export const DAYS = [1, 2, 3, 5, 7, 14];
/** Below this, a real-time clock turns red and beeps once. */
const LOW_MS = 10_000;

/** The `<option>`s of a time-control select: none, presets, days. */
export function clockOptions() {
  const rt = PRESETS.map(([i, inc]) => `<option value="rt:${i}:${inc}">${i / 60}+${inc}</option>`).join('');
  const days = DAYS.map((d) => `<option value="d:${d}">${esc(t('clock.days', { count: d }))}</option>`).join('');
  return `<option value="">${esc(t('clock.none'))}</option>
    <optgroup label="${esc(t('clock.realtime'))}">${rt}</optgroup>
    <optgroup label="${esc(t('clock.correspondence'))}">${days}</optgroup>`;
}

/** The API's `clock` for a select's value (undefined: no clock). */
export function clockValue(value) {
  if (!value) return undefined;
  const [kind, a, b] = value.split(':');
  return kind === 'd' ? { days: Number(a) } : { initial_s: Number(a), increment_s: Number(b) };
}

/** How a time reads: m:ss (tenths under 10 s), or days and hours. */
export function formatMs(ms, correspondence) {
  const s = Math.max(0, ms) / 1000;
  if (correspondence || s >= 86_400) {
    const d = Math.floor(s / 86_400);
    const h = Math.floor((s % 86_400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    return d > 0 ? t('clock.dh', { d, h }) : t('clock.hm', { h, m });
  }
  if (s < 10) return s.toFixed(1);
  const m = Math.floor(s / 60);
  const sec = Math.floor(s % 60);
  return `${m}:${String(sec).padStart(2, '0')}`;
}

export class Clocks {
  constructor() {
    this.info = null;
    this.received = 0;
    this.shown = [];
    this.warned = false;
    this.timer = null;
    this.serverSkew = 0;
  }

  /** Take the server's clocks (`state.clock`, maybe absent). */
  update(info) {
    const now = performance.now();
    const sameTurn = this.info && info && this.info.running === info.running && info.running !== null;
    const before = sameTurn ? this.current(now) : null;
    this.info = info || null;
    this.received = now;
    // Server time minus this browser's, at the update (for claims).
    if (info) this.serverSkew = info.at - Date.now();
    // The same turn: never show more time than was shown (latency).
    this.cap = before && info ? before : null;
    if (!sameTurn) this.warned = false;
  }

  /** Every seat's time now (ms), `null` for untimed seats. */
  current(now = performance.now()) {
    if (!this.info) return [];
    return this.info.remaining_ms.map((ms, seat) => {
      if (ms === null) return null;
      let left = ms;
      if (seat === this.info.running) left -= now - this.received;
      if (this.cap && this.cap[seat] !== null && this.cap[seat] !== undefined) left = Math.min(left, this.cap[seat]);
      return Math.max(0, left);
    });
  }

  correspondence() { return 'days' in (this.info?.control || {}); }

  /** The clock of `seat` as HTML (empty without clocks). */
  html(seat) {
    if (!this.info) return '';
    const left = this.current()[seat];
    if (left === null || left === undefined) return '';
    const running = this.info.running === seat;
    const low = running && !this.correspondence() && left < LOW_MS;
    return `<span class="clock${running ? ' running' : ''}${low ? ' low' : ''}" data-seat="${seat}" role="timer" aria-label="${esc(t('clock.left'))}">${esc(formatMs(left, this.correspondence()))}</span>`;
  }

  /** Refresh the shown clocks in `root` ten times a second. */
  start(root) {
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (!this.info) return;
      const times = this.current();
      for (const el of root.querySelectorAll('.clock[data-seat]')) {
        const seat = Number(el.dataset.seat);
        const left = times[seat];
        if (left === null || left === undefined) continue;
        el.textContent = formatMs(left, this.correspondence());
        const low = this.info.running === seat && !this.correspondence() && left < LOW_MS;
        el.classList.toggle('low', low);
        if (low && !this.warned && this.mine?.(seat)) {
          this.warned = true;
          sounds.lowTime();
        }
      }
    }, 100);
  }

  stop() { clearInterval(this.timer); }
}
