// Rollups (part of the "Rollups & lifecycle" page): a namespace's rollups with their watermark and
// pending repairs; create one (errors shown at the field the API names), delete it after a
// confirmation, recompute a time range.
import { api, ApiError, enc } from '../api.js';
import { confirmDialog, el, field, notice, table, time } from '../ui.js';

const AGGREGATES = ['avg', 'min', 'max', 'first', 'last', 'sum', 'count'];
/** datetime-local (the browser's zone) → RFC 3339 UTC; empty stays empty. */
const utc = (v) => (v ? new Date(v).toISOString() : null);

function zones() {
  const list = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return el('datalist#rollup-zones', {}, ['UTC', ...list.filter((z) => z !== 'UTC')].map((z) => el('option', { value: z })));
}

function pending(r) {
  if (!r.pendingInvalid.length) return el('span.muted', {}, 'none');
  return el('span', {}, `${r.pendingInvalid.length} pending: `,
    r.pendingInvalid.map((p, i) => el('span', {}, i ? ', ' : '', time(p.start), ' – ', time(p.end))));
}

/** The rollups panel for the namespaces the tenant has; `namespaces` is not empty. */
export async function rollupsPanel(namespaces) {
  const nsSelect = el('select#rollup-namespace', { name: 'namespace' }, namespaces.map((n) => el('option', { value: n.name }, n.name)));
  const listPlace = el('div#rollup-list');
  const out = el('div#rollup-result');
  const base = () => `/api/v1/namespaces/${enc(nsSelect.value)}/rollups`;

  // create
  const name = el('input#rollup-name', { type: 'text', name: 'name', required: true, autocomplete: 'off', spellcheck: false, placeholder: 'cpu_1h' });
  const source = el('select#rollup-source', { name: 'source' });
  const target = el('input#rollup-target', { type: 'text', name: 'target', autocomplete: 'off', spellcheck: false, placeholder: 'the rollup’s name' });
  const every = el('input#rollup-every', { type: 'text', name: 'every', required: true, autocomplete: 'off', spellcheck: false, placeholder: '1h', size: 8 });
  const zone = el('input#rollup-timezone', { type: 'text', name: 'timezone', value: 'UTC', list: 'rollup-zones', autocomplete: 'off', spellcheck: false });
  const boxes = AGGREGATES.map((a) => el('input', { type: 'checkbox', name: 'aggregates', value: a, id: 'rollup-agg-' + a, defaultChecked: a !== 'first' && a !== 'last' }));
  const aggError = el('p.field-error#rollup-aggregates-error', { hidden: true, role: 'alert' });
  const fields = {
    name: field('Name', name, 'Letters, digits, _ . - (up to 128).'),
    source: field('Source measurement', source),
    target: field('Target measurement (optional)', target, 'Absent: the rollup’s name. Columns are <field>_<aggregate>.'),
    every: field('Bucket width', every, '<n> and ns, us, ms, s, m, h — or d, w, mo, y in the time zone’s calendar.'),
    timezone: field('Time zone', zone, 'Days, weeks, months and years follow its midnights (DST days are 23 or 25 h).'),
  };
  const aggregates = el('fieldset#rollup-aggregates', { 'aria-describedby': aggError.id }, el('legend', {}, 'Aggregates'),
    boxes.map((b) => el('label.check', { for: b.id }, b, b.value)), aggError);
  aggregates.setError = (m) => { aggError.textContent = m || ''; aggError.hidden = !m; };
  const form = el('form#create-rollup', { noValidate: true },
    el('div.row', {}, fields.name, fields.source, fields.target),
    el('div.row', {}, fields.every, fields.timezone), aggregates, zones(),
    el('div.row', {}, el('button.primary', { type: 'submit' }, 'Create rollup')));
  const clearErrors = () => { Object.values(fields).forEach((f) => f.setError(null)); aggregates.setError(null); };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    out.replaceChildren();
    const body = { name: name.value.trim(), source: source.value, every: every.value.trim(), timezone: zone.value.trim() || 'UTC',
      aggregates: boxes.filter((b) => b.checked).map((b) => b.value) };
    if (target.value.trim()) body.target = target.value.trim();
    try {
      const r = await api('POST', base(), { body });
      form.reset();
      await list();
      out.replaceChildren(notice('ok', `Rollup ${r.name} created: ${r.source} → ${r.target}, every ${r.every}. `
        + 'It is materialised after the next compaction; its target can be queried at once.'));
    } catch (e) {
      let shown = false;
      if (e instanceof ApiError) {
        for (const x of e.problem.errors || []) {
          const f = x.field.startsWith('aggregates') ? aggregates : fields[x.field];
          if (f) { f.setError(x.message); shown = true; }
        }
      }
      if (!shown) out.replaceChildren(notice('error', e.message));
      (form.querySelector('[aria-invalid="true"]') || name).focus();
    }
  });

  // refresh a range
  const refreshSelect = el('select#refresh-rollup', { name: 'rollup' });
  const start = el('input#refresh-start', { type: 'datetime-local', name: 'start', step: 1, required: true });
  const end = el('input#refresh-end', { type: 'datetime-local', name: 'end', step: 1, required: true });
  const refreshFields = { rollup: field('Rollup', refreshSelect), start: field('From (your time zone)', start), end: field('To, exclusive', end) };
  const refreshForm = el('form#refresh-form', { noValidate: true }, el('div.row', {}, Object.values(refreshFields)),
    el('div.row', {}, el('button', { type: 'submit' }, 'Recompute range')));
  refreshForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    Object.values(refreshFields).forEach((f) => f.setError(null));
    out.replaceChildren();
    if (!refreshSelect.value) return;
    try {
      const r = await api('POST', `${base()}/${enc(refreshSelect.value)}/refresh`, { body: { start: utc(start.value), end: utc(end.value) } });
      await list();
      out.replaceChildren(notice(r.lastError ? 'error' : 'ok', r.lastError ? `Recompute failed: ${r.lastError}` : `Recomputed ${r.name}.`));
    } catch (e) {
      const f = e instanceof ApiError && (e.problem.errors || []).map((x) => refreshFields[x.field]).find(Boolean);
      if (f) e.problem.errors.forEach((x) => refreshFields[x.field]?.setError(x.message));
      else out.replaceChildren(notice('error', e.message));
    }
  });

  const remove = async (r) => {
    const ok = await confirmDialog({ title: 'Delete rollup ' + r.name, danger: true, confirm: 'Delete',
      body: el('p', {}, `${r.name} stops being computed. The points already in ${r.target} stay (delete them below if you want them gone).`) });
    if (!ok) return;
    try {
      await api('DELETE', `${base()}/${enc(r.name)}`);
      await list();
      out.replaceChildren(notice('ok', `Rollup ${r.name} deleted.`));
    } catch (e) {
      out.replaceChildren(notice('error', e.message));
    }
  };

  async function list() {
    const rollups = await api('GET', base());
    refreshSelect.replaceChildren(...rollups.map((r) => el('option', { value: r.name }, r.name)));
    refreshForm.hidden = !rollups.length;
    if (!rollups.length) {
      listPlace.replaceChildren(el('p.muted#no-rollups', {}, 'No rollups in this namespace yet.'));
      return;
    }
    listPlace.replaceChildren(table(['name', 'source → target', 'bucket', 'aggregates', 'materialised until', 'pending repairs', ''],
      rollups.map((r) => el('tr', { dataset: { rollup: r.name } },
        el('th', { scope: 'row' }, r.name),
        el('td', {}, `${r.source} → ${r.target}`),
        el('td', {}, r.every, ' ', el('span.muted', {}, r.timezone), r.origin ? el('span.muted', {}, ` from ${r.origin}`) : null),
        el('td', {}, r.aggregates.join(', ')),
        el('td.watermark', {}, r.materialisedUntil ? time(r.materialisedUntil) : el('span.muted', {}, 'not yet')),
        el('td.pending', {}, pending(r), r.lastError ? el('p.field-error', {}, r.lastError) : null),
        el('td', {}, el('button.danger', { type: 'button', 'aria-label': 'Delete rollup ' + r.name, onclick: () => remove(r) }, 'Delete'))))));
  }

  async function measurements() {
    const ms = await api('GET', `/api/v1/namespaces/${enc(nsSelect.value)}/measurements`);
    source.replaceChildren(...ms.map((m) => el('option', { value: m }, m)));
    if (!ms.length) source.append(el('option', { value: '' }, '(nothing written yet)'));
  }

  nsSelect.addEventListener('change', () => Promise.all([list(), measurements()]).catch((e) => out.replaceChildren(notice('error', e.message))));
  await Promise.all([list(), measurements()]);
  const panel = el('div', {}, el('p.hint', {}, 'A rollup keeps a downsampled copy of a measurement, bucket by bucket, and repairs it when late '
      + 'data or a delete changes a bucket it already holds. Query its target like any measurement.'),
    el('div.row', {}, field('Namespace', nsSelect)), listPlace, out,
    el('h3', {}, 'New rollup'), form, el('h3', {}, 'Recompute a range'), refreshForm);
  /** Shows the list again (a compaction materialises): errors go to the panel's notice. */
  panel.reload = () => list().catch((e) => out.replaceChildren(notice('error', e.message)));
  return panel;
}
