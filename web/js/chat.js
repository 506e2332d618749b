// A game's chat: the players' room (players write, everyone reads) and the
// spectators' room (spectators write; players read it once the game is
// over). A player may mute the chat; the choice is kept in this browser.
import { api } from './api.js';
import { esc } from './util.js';
import { t } from './i18n.js';

const MUTE_KEY = 'tabula.chatMuted';

export class ChatPanel {
  constructor(host, gameId, toast) {
    this.host = host;
    this.id = gameId;
    this.toast = toast;
    this.lines = [];
    this.player = false;
    this.muted = localStorage.getItem(MUTE_KEY) === '1';
    this.render();
  }

  /** All lines this browser may read (from a snapshot). */
  reset(lines, player) {
    this.lines = lines.slice();
    this.player = player;
    this.render();
  }

  add(line) {
    this.lines.push(line);
    this.renderLines();
  }

  room() { return this.player ? 'players' : 'spectators'; }

  render() {
    const title = this.player ? t('chat.players') : t('chat.spectators');
    this.host.innerHTML = `
      <h2 class="chat-title">${esc(title)}
        <button type="button" class="ghost chat-mute" aria-pressed="${this.muted}">${esc(this.muted ? t('chat.unmute') : t('chat.mute'))}</button>
      </h2>
      <ol class="chat-lines" aria-live="polite" aria-label="${esc(title)}"${this.muted ? ' hidden' : ''}></ol>
      <form class="chat-form row"${this.muted ? ' hidden' : ''}>
        <input class="chat-input" maxlength="140" autocomplete="off" aria-label="${esc(t('chat.say'))}" placeholder="${esc(t('chat.say'))}">
        <button type="submit">${esc(t('chat.send'))}</button>
      </form>`;
    this.host.querySelector('.chat-mute').addEventListener('click', () => {
      this.muted = !this.muted;
      localStorage.setItem(MUTE_KEY, this.muted ? '1' : '0');
      this.render();
    });
    this.host.querySelector('.chat-form').addEventListener('submit', (e) => this.send(e));
    this.renderLines();
  }

  renderLines() {
    const list = this.host.querySelector('.chat-lines');
    if (!list) return;
    list.innerHTML = this.lines.map((l) => `
      <li class="chat-line ${l.room}"><strong>${esc(l.name)}</strong>${l.room === 'spectators' ? ` <span class="muted">${esc(t('chat.spectator'))}</span>` : ''}: ${esc(l.text)}</li>`).join('');
    list.scrollTop = list.scrollHeight;
  }

  async send(e) {
    e.preventDefault();
    const input = this.host.querySelector('.chat-input');
    const text = input.value.trim();
    if (!text) return;
    try {
      await api(`/api/games/${this.id}/chat`, { room: this.room(), text });
      input.value = '';
    } catch (err) { this.toast(err.message, true); }
  }
}
