// Tokens: create with scopes per namespace (the secret shown once), list without secrets, revoke.
import { api, enc } from '../api.js';
import { confirmDialog, copy, el, field, notice, table, time } from '../ui.js';
import { showError } from './namespaces.js';

const ACTIONS = ['read', 'write', 'admin'];

/** One row of checkboxes per namespace (and one for all of them). */
function scopeMatrix(namespaces, preset) {
  const boxes = [];
  const rows = ['*', ...namespaces].map((ns) => el('tr', {},
    el('th', { scope: 'row' }, ns === '*' ? 'All namespaces (*)' : ns),
    ACTIONS.map((a) => {
      const scope = `${a}:${ns}`;
      const box = el('input', { type: 'checkbox', value: scope, checked: preset.has(scope), 'aria-label': `${a} on ${ns === '*' ? 'all namespaces' : ns}` });
      boxes.push(box);
      return el('td', {}, box);
    })));
  const t = table(['namespace', ...ACTIONS], rows);
  t.selected = () => boxes.filter((b) => b.checked).map((b) => b.value);
  return t;
}

export async function render(root, params) {
  root.append(el('h1', {}, 'Tokens'));
  const [namespaces] = await Promise.all([api('GET', '/api/v1/namespaces?limit=1000')]);
  const listPlace = el('div');
  const refresh = async () => {
    const tokens = await api('GET', '/api/v1/tokens?limit=1000');
    if (tokens.length === 0) {
      listPlace.replaceChildren(el('p.muted', {}, 'No tokens.'));
      return;
    }
    listPlace.replaceChildren(table(['id', 'description', 'scopes', 'created', 'last used', 'expires', ''], tokens.map((t) => el('tr', { dataset: { token: t.id } },
      el('td.mono', {}, t.id), el('td', {}, t.description || el('span.muted', {}, '—')), el('td.mono', {}, t.scopes.join(' ')),
      el('td', {}, time(t.createdAt)), el('td', {}, t.lastUsedAt ? time(t.lastUsedAt) : el('span.muted', {}, 'never')),
      el('td', {}, t.expiresAt ? time(t.expiresAt) : el('span.muted', {}, 'never')),
      el('td', {}, el('button.danger', { type: 'button', 'aria-label': 'Revoke token ' + (t.description || t.id), onclick: () => revoke(t) }, 'Revoke'))))));
  };
  const revoke = async (t) => {
    const ok = await confirmDialog({ title: 'Revoke token', danger: true, confirm: 'Revoke',
      body: el('p', {}, `Token ${t.id}${t.description ? ' (' + t.description + ')' : ''} stops working at once.`) });
    if (!ok) return;
    try {
      await api('DELETE', '/api/v1/tokens/' + enc(t.id));
      await refresh();
      listPlace.prepend(notice('ok', `Token ${t.id} revoked.`));
    } catch (e) {
      listPlace.prepend(notice('error', e.message));
    }
  };

  const preset = new Set(params.get('scope') ? [params.get('scope')] : params.get('ns') ? [`write:${params.get('ns')}`] : []);
  const matrix = scopeMatrix(namespaces.map((n) => n.name), preset);
  const description = el('input', { type: 'text', name: 'description', maxLength: 200, placeholder: 'e.g. telegraf on web-1' });
  const expires = el('input', { type: 'datetime-local', name: 'expiresAt' });
  const fields = {
    description: field('Description', description, 'What uses it, so you know what breaks when you revoke it.'),
    expiresAt: field('Expires (your time zone)', expires, 'Empty: never.'),
  };
  const scopesError = el('p.field-error', { hidden: true, role: 'alert' });
  fields.scopes = { setError: (m) => { scopesError.textContent = m || ''; scopesError.hidden = !m; } };
  const out = el('div#token-result');
  const form = el('form#create-token', {}, el('div.row', {}, fields.description, fields.expiresAt),
    el('fieldset', {}, el('legend', {}, 'Scopes'), el('p.hint', {}, 'read: queries; write: line protocol; admin: namespaces, tokens, deletes.'), matrix, scopesError),
    el('button.primary', { type: 'submit' }, 'Create token'), out);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    out.replaceChildren();
    const scopes = matrix.selected();
    if (scopes.length === 0) {
      fields.scopes.setError('Choose at least one scope.');
      return;
    }
    fields.scopes.setError(null);
    try {
      const body = { description: description.value.trim() || null, scopes };
      if (expires.value) body.expiresAt = new Date(expires.value).toISOString();
      const t = await api('POST', '/api/v1/tokens', { body });
      const code = el('code#new-token', {}, t.token);
      const copied = el('span.small', { role: 'status' });
      out.replaceChildren(el('div.notice.warn', {},
        el('p', {}, el('strong', {}, 'Copy this token now: it will not be shown again.'), ` Scopes: ${t.scopes.join(' ')}.`),
        el('div.secret', {}, code, el('button#copy-token', { type: 'button', onclick: async () => {
          copied.textContent = (await copy(t.token, code)) ? 'Copied.' : 'Selected: press Ctrl+C (Cmd+C) to copy.';
        } }, 'Copy'), copied)));
      form.reset();
      matrix.querySelectorAll('input').forEach((b) => { b.checked = false; });
      await refresh();
    } catch (e) {
      showError(e, fields, out);
    }
  });
  await refresh();
  root.append(el('h2', {}, 'Create a token'), el('div.panel', {}, form), el('h2', {}, 'Tokens'), el('div.panel', {}, listPlace));
}
