// Signing up and in, and the account's settings (password, deletion).
import { api } from './api.js';
import { esc } from './util.js';
import { t } from './i18n.js';

/** `#/login`: sign in or create an account; `done` runs after. */
export function loginPage(main, toast, done) {
  main.innerHTML = `
    <section class="account">
      <h1>${esc(t('account.signIn'))}</h1>
      <form id="login" class="stack">
        <label>${esc(t('account.username'))} <input name="username" autocomplete="username" required minlength="2" maxlength="20" pattern="[A-Za-z0-9_\\-]+"></label>
        <label>${esc(t('account.password'))} <input name="password" type="password" autocomplete="current-password" required minlength="8" maxlength="128"></label>
        <div class="row">
          <button type="submit" data-act="login">${esc(t('account.signIn'))}</button>
          <button type="submit" data-act="signup" class="ghost">${esc(t('account.signUp'))}</button>
        </div>
        <p class="muted">${esc(t('account.guestNote'))}</p>
      </form>
    </section>`;
  const form = main.querySelector('#login');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const act = e.submitter?.dataset.act || 'login';
    const body = { username: form.username.value.trim(), password: form.password.value };
    try {
      const me = await api(act === 'signup' ? '/api/account' : '/api/login', body);
      toast(t('account.welcome', { name: me.username }));
      done(me);
    } catch (err) { toast(err.message, true); }
  });
}

/** The account's personal API tokens: list, make (shown once), revoke. */
async function tokens(main, toast) {
  const list = main.querySelector('#tokens .tokens');
  const shown = main.querySelector('#tokens .newtoken');
  const refresh = async () => {
    const all = await api('/api/account/tokens').catch(() => []);
    list.innerHTML = all.length ? all.map((k) => `
      <li>${esc(k.description)} <span class="muted">${esc(k.last_used
        ? t('account.tokenLastUsed', { date: new Date(k.last_used).toLocaleString() })
        : t('account.tokenNeverUsed'))}</span>
        <button type="button" class="ghost" data-revoke="${esc(k.id)}">${esc(t('account.tokenRevoke'))}</button></li>`).join('')
      : `<li class="muted">${esc(t('account.tokensNone'))}</li>`;
    for (const b of list.querySelectorAll('button[data-revoke]')) {
      b.addEventListener('click', async () => {
        try {
          await api(`/api/account/tokens/${encodeURIComponent(b.dataset.revoke)}`, undefined, 'DELETE');
          refresh();
        } catch (err) { toast(err.message, true); }
      });
    }
  };
  const form = main.querySelector('#newtoken');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const made = await api('/api/account/tokens', { description: form.description.value });
      form.reset();
      shown.hidden = false;
      shown.innerHTML = `${esc(t('account.tokenShownOnce'))} <code>${esc(made.token)}</code>`;
      refresh();
    } catch (err) { toast(err.message, true); }
  });
  refresh();
}

/** `#/account`: change the password, sign out, API tokens, delete the account. */
export function accountPage(main, me, toast, done) {
  main.innerHTML = `
    <section class="account">
      <h1>${esc(me.username)}</h1>
      <p><a href="#/@/${esc(me.username)}">${esc(t('account.profile'))}</a></p>
      <button type="button" id="logout">${esc(t('account.signOut'))}</button>
      <form id="password" class="stack">
        <h2>${esc(t('account.changePassword'))}</h2>
        <label>${esc(t('account.currentPassword'))} <input name="old" type="password" autocomplete="current-password" required></label>
        <label>${esc(t('account.newPassword'))} <input name="new" type="password" autocomplete="new-password" required minlength="8" maxlength="128"></label>
        <button type="submit">${esc(t('account.changePassword'))}</button>
      </form>
      <section id="tokens" class="stack">
        <h2>${esc(t('account.tokens'))}</h2>
        <p class="muted">${esc(t('account.tokensNote'))}</p>
        <ul class="tokens"></ul>
        <form id="newtoken" class="row">
          <label>${esc(t('account.tokenDescription'))} <input name="description" required maxlength="100"></label>
          <button type="submit">${esc(t('account.tokenCreate'))}</button>
        </form>
        <p class="newtoken" hidden></p>
      </section>
      <form id="delete" class="stack">
        <h2>${esc(t('account.delete'))}</h2>
        <p class="muted">${esc(t('account.deleteNote'))}</p>
        <label>${esc(t('account.password'))} <input name="password" type="password" autocomplete="current-password" required></label>
        <button type="submit" class="danger">${esc(t('account.delete'))}</button>
      </form>
    </section>`;
  main.querySelector('#logout').addEventListener('click', async () => {
    await api('/api/logout', {}).catch(() => {});
    done(null);
  });
  const pw = main.querySelector('#password');
  pw.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await api('/api/account/password', { old: pw.old.value, new: pw.new.value });
      pw.reset();
      toast(t('account.passwordChanged'));
    } catch (err) { toast(err.message, true); }
  });
  tokens(main, toast);
  const del = main.querySelector('#delete');
  del.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!confirm(t('account.deleteConfirm'))) return;
    try {
      await api('/api/account', { password: del.password.value }, 'DELETE');
      done(null);
    } catch (err) { toast(err.message, true); }
  });
}
