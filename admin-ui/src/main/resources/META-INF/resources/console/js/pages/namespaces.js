// Namespaces: list with series, stored bytes, retention and cold-after; create, edit, delete.
import { api, ApiError, enc } from '../api.js';
import { bytes, confirmDialog, duration, el, field, notice, num, table, time } from '../ui.js';

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const DURATION_HINT = 'ISO-8601 in days or hours: P30D is 30 days, PT12H 12 hours.';

/** Shows an API refusal at the fields it names, or as a notice when it names none. */
export function showError(e, fields, place) {
  let shown = false;
  for (const [name, f] of Object.entries(fields)) {
    const m = e instanceof ApiError ? e.fieldMessage(name) : null;
    f.setError(m);
    shown ||= !!m;
  }
  if (!shown) place.replaceChildren(notice('error', e.message));
}

function editRow(ns, refresh) {
  const retention = el('input', { type: 'text', value: ns.retention || '', name: 'retention' });
  const coldAfter = el('input', { type: 'text', value: ns.coldAfter || '', name: 'coldAfter', placeholder: 'service default' });
  const fields = { retention: field('Retention', retention, DURATION_HINT), coldAfter: field('Cold after', coldAfter, 'Empty: the service’s policy.') };
  const out = el('div');
  const form = el('form.row', {}, fields.retention, fields.coldAfter,
    el('button.primary', { type: 'submit' }, 'Save'), el('button', { type: 'button', onclick: refresh }, 'Cancel'), out);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const body = { retention: retention.value.trim() || null };
      if (coldAfter.value.trim()) body.coldAfter = coldAfter.value.trim();
      await api('PATCH', '/api/v1/namespaces/' + enc(ns.name), { body });
      refresh();
    } catch (e) {
      showError(e, fields, out);
    }
  });
  return el('tr', {}, el('td', { colspan: 7 }, el('strong', {}, 'Edit ' + ns.name), form));
}

export async function render(root) {
  root.append(el('h1', {}, 'Namespaces'));
  const listPlace = el('div');
  const refresh = async () => {
    const list = await api('GET', '/api/v1/namespaces?limit=1000');
    if (list.length === 0) {
      listPlace.replaceChildren(el('p.muted', {}, 'No namespaces yet: create the first one below.'));
      return;
    }
    const rows = list.map((ns) => {
      const row = el('tr', { dataset: { namespace: ns.name } },
        el('th', { scope: 'row' }, el('a', { href: '#/explorer?ns=' + enc(ns.name) }, ns.name)),
        el('td.num', {}, num(ns.series)), el('td.num', {}, bytes(ns.storedBytes)),
        el('td', { title: ns.retention }, duration(ns.retention)), el('td', { title: ns.coldAfter || '' }, ns.coldAfter ? duration(ns.coldAfter) : 'service default'),
        el('td', {}, time(ns.createdAt)),
        el('td', {},
          el('button', { type: 'button', 'aria-label': 'Edit ' + ns.name, onclick: () => row.replaceWith(editRow(ns, refresh)) }, 'Edit'), ' ',
          el('button.danger', { type: 'button', 'aria-label': 'Delete ' + ns.name, onclick: () => remove(ns.name) }, 'Delete')));
      return row;
    });
    listPlace.replaceChildren(table(['name', 'series', 'stored', 'retention', 'cold after', 'created', ''], rows, { numeric: [1, 2] }));
  };
  const remove = async (name) => {
    const ok = await confirmDialog({ title: 'Delete namespace ' + name, danger: true, confirm: 'Delete', typed: name,
      body: el('p', {}, 'Every point in it is deleted, and so are the tokens’ rights on it by name. This cannot be undone.') });
    if (!ok) return;
    try {
      await api('DELETE', '/api/v1/namespaces/' + enc(name));
      await refresh();
      listPlace.prepend(notice('ok', `Namespace ${name} deleted; its data is removed in the background.`));
    } catch (e) {
      listPlace.prepend(notice('error', e.message));
    }
  };

  const name = el('input', { type: 'text', name: 'name', required: true, autocomplete: 'off', spellcheck: false });
  const retention = el('input', { type: 'text', name: 'retention', placeholder: 'tenant maximum' });
  const coldAfter = el('input', { type: 'text', name: 'coldAfter', placeholder: 'service default' });
  const fields = {
    name: field('Name', name, 'Lower-case letters, digits, - and _; starts with a letter or digit; at most 63 characters.'),
    retention: field('Retention', retention, DURATION_HINT + ' Empty: the tenant’s maximum.'),
    coldAfter: field('Cold after', coldAfter, 'When data moves to the archive; at most the retention. Empty: the service’s policy.'),
  };
  const out = el('div');
  const form = el('form#create-namespace', { novalidate: true }, el('div.row', {}, fields.name, fields.retention, fields.coldAfter),
    el('div.row', {}, el('button.primary', { type: 'submit' }, 'Create namespace')), out);
  name.addEventListener('input', () => fields.name.setError(name.value && !NAME.test(name.value) ? 'Not a valid name: see the rule below the field.' : null));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    out.replaceChildren();
    if (!NAME.test(name.value)) {
      fields.name.setError('Not a valid name: see the rule below the field.');
      name.focus();
      return;
    }
    try {
      const body = { name: name.value };
      if (retention.value.trim()) body.retention = retention.value.trim();
      if (coldAfter.value.trim()) body.coldAfter = coldAfter.value.trim();
      const created = await api('POST', '/api/v1/namespaces', { body });
      Object.values(fields).forEach((f) => f.setError(null));
      form.reset();
      await refresh();
      out.replaceChildren(notice('ok', `Namespace ${created.name} created. `, el('a', { href: '#/tokens?ns=' + enc(created.name) }, 'Create a token for it'),
        ' or ', el('a', { href: '#/explorer?ns=' + enc(created.name) }, 'see how to write to it'), '.'));
    } catch (e) {
      showError(e, fields, out);
    }
  });
  await refresh();
  root.append(el('div.panel', {}, listPlace), el('h2', {}, 'Create a namespace'), el('div.panel', {}, form));
}
