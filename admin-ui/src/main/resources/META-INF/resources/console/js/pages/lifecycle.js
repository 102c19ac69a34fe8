// Rollups and lifecycle: the rollups (pages/rollups.js), hot vs archived data per namespace, flush
// and compact now, deletes with a dry-run count first.
import { api, ApiError, enc } from '../api.js';
import { bytes, confirmDialog, el, field, notice, num, table, time } from '../ui.js';
import { rollupsPanel } from './rollups.js';

const ident = (name) => '"' + name.replaceAll('"', '""') + '"';
const literal = (s) => "'" + String(s).replaceAll("'", "''") + "'";
/** datetime-local (the browser's zone) → RFC 3339 UTC; empty stays empty. */
const utc = (v) => (v ? new Date(v).toISOString() : null);
const tsLiteral = (iso) => `TIMESTAMP_NS ${literal(iso.replace('T', ' ').replace('Z', ''))}`;

/** The SQL that counts what a delete of `request` would remove: points and series. */
export function dryRunSql(request, tagColumns) {
  const where = [];
  for (const [k, v] of Object.entries(request.tags || {})) where.push(`${ident(k)} = ${literal(v)}`);
  if (request.start) where.push(`time >= ${tsLiteral(request.start)}`);
  if (request.end) where.push(`time <= ${tsLiteral(request.end)}`);
  const cond = where.length ? ' WHERE ' + where.join(' AND ') : '';
  // one scan: a series is a distinct tag set (a missing tag, NULL, is part of it)
  const series = tagColumns.length ? `count(DISTINCT row(${tagColumns.map(ident).join(', ')}))` : 'least(count(*), 1)';
  return `SELECT count(*) AS points, ${series} AS series FROM ${ident(request.measurement)}${cond}`;
}

function tiers(namespaces) {
  return table(['namespace', 'hot', 'archived', 'total'], namespaces.map((n) => {
    const archived = n.coldBytes ?? n.archivedBytes;
    const hot = n.hotBytes ?? (archived === undefined ? n.storedBytes : n.storedBytes - archived);
    return el('tr', {}, el('th', { scope: 'row' }, n.name), el('td.num', {}, bytes(hot)),
      el('td.num', {}, archived === undefined ? el('span.muted', {}, 'not reported') : bytes(archived)), el('td.num', {}, bytes(n.storedBytes)));
  }), { numeric: [1, 2, 3] });
}

async function deleteForm(namespaces) {
  const nsSelect = el('select#delete-namespace', { name: 'namespace' }, namespaces.map((n) => el('option', { value: n.name }, n.name)));
  const mSelect = el('select#delete-measurement', { name: 'measurement' });
  const tags = el('input#delete-tags', { type: 'text', name: 'tags', placeholder: 'host=h1, region=eu', autocomplete: 'off' });
  const start = el('input#delete-start', { type: 'datetime-local', name: 'start', step: 1 });
  const end = el('input#delete-end', { type: 'datetime-local', name: 'end', step: 1 });
  const fields = {
    namespace: field('Namespace', nsSelect), measurement: field('Measurement', mSelect),
    tags: field('Tags (optional)', tags, 'key=value pairs, comma-separated; a point must match all of them.'),
    start: field('From (your time zone, optional)', start), end: field('To, inclusive (optional)', end, 'Empty: the series’ newest point.'),
  };
  const count = el('button.primary#delete-dry-run', { type: 'submit' }, 'Count what would be deleted');
  const doIt = el('button.danger#delete-run', { type: 'button', disabled: true }, 'Delete');
  const out = el('div#delete-result');
  const form = el('form#delete-form', {}, el('div.row', {}, fields.namespace, fields.measurement),
    el('div.row', {}, fields.tags, fields.start, fields.end), el('div.row', {}, count, doIt), out);
  const schemas = new Map();
  const loadMeasurements = async () => {
    const list = await api('GET', `/api/v1/namespaces/${enc(nsSelect.value)}/measurements`);
    mSelect.replaceChildren(...list.map((m) => el('option', { value: m }, m)));
    if (!list.length) mSelect.append(el('option', { value: '' }, '(nothing written yet)'));
  };
  const request = () => {
    const t = {};
    for (const part of tags.value.split(',').map((s) => s.trim()).filter(Boolean)) {
      const i = part.indexOf('=');
      if (i <= 0) throw new Error(`“${part}” is not key=value.`);
      t[part.slice(0, i).trim()] = part.slice(i + 1).trim();
    }
    const r = { measurement: mSelect.value };
    if (Object.keys(t).length) r.tags = t;
    if (start.value) r.start = utc(start.value);
    if (end.value) r.end = utc(end.value);
    return r;
  };
  let counted = null;
  const invalidate = () => { counted = null; doIt.disabled = true; doIt.textContent = 'Delete'; };
  form.addEventListener('input', invalidate);
  nsSelect.addEventListener('change', () => loadMeasurements().catch((e) => out.replaceChildren(notice('error', e.message))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    invalidate();
    out.replaceChildren();
    try {
      const r = request();
      if (!r.measurement) throw new Error('Choose a measurement.');
      const ns = nsSelect.value;
      if (!schemas.has(ns + '/' + r.measurement)) {
        schemas.set(ns + '/' + r.measurement, (await api('GET', `/api/v1/namespaces/${enc(ns)}/measurements/${enc(r.measurement)}`)).columns);
      }
      const tagColumns = schemas.get(ns + '/' + r.measurement).filter((c) => c.kind === 'tag').map((c) => c.name);
      const unknown = Object.keys(r.tags || {}).filter((k) => !tagColumns.includes(k));
      if (unknown.length) throw new Error(`${r.measurement} has no tag ${unknown.join(', ')}.`);
      const answer = await api('POST', `/api/v1/namespaces/${enc(ns)}/query`, { body: { sql: dryRunSql(r, tagColumns) } });
      const [points, series] = answer.rows[0];
      counted = { ns, r, points, series };
      out.replaceChildren(notice(points ? 'warn' : '', el('span#dry-run-count', {}, `${num(points)} points in ${num(series)} series`),
        points ? ' would be deleted.' : ': nothing to delete.'));
      doIt.disabled = !points;
      doIt.textContent = points ? `Delete ${num(points)} points` : 'Delete';
    } catch (e) {
      out.replaceChildren(notice('error', e.message));
    }
  });
  doIt.addEventListener('click', async () => {
    if (!counted) return;
    const { ns, r, points, series } = counted;
    const ok = await confirmDialog({ title: 'Delete points', danger: true, confirm: 'Delete', typed: r.measurement,
      body: el('p', {}, `${num(points)} points in ${num(series)} series of ${r.measurement} in ${ns} are deleted for good: `
        + 'they never come back, not after compaction, restart or archiving.') });
    if (!ok) return;
    try {
      const answer = await api('POST', `/api/v1/namespaces/${enc(ns)}/delete`, { body: r });
      invalidate();
      out.replaceChildren(notice('ok', `Deleted: ${num(answer.seriesDeleted)} series touched.`));
    } catch (e) {
      const missing = e instanceof ApiError && e.status === 404 && e.problem.errorId === 'not-found';
      out.replaceChildren(notice('error', missing ? 'This server does not offer deletes yet (POST …/delete is not there).' : e.message));
    }
  });
  await loadMeasurements();
  return form;
}

/** What the materialisation after a compaction did, one line per rollup. */
function rollupLines(rollups) {
  if (!rollups || !rollups.length) return null;
  return el('ul#compact-rollups', {}, rollups.map((r) => el('li', {}, `Rollup ${r.name}: `,
    r.lastError ? `failed (${r.lastError})`
      : [r.materialisedUntil === r.previouslyMaterialisedUntil ? 'unchanged at ' : 'materialised until ',
        r.materialisedUntil ? time(r.materialisedUntil) : 'nothing yet'],
    r.pendingInvalid ? `; ${num(r.pendingInvalid)} repairs pending` : '')));
}

/** Flush and compaction on demand (the engine also runs both by itself). */
function maintenance(namespaces, compacted) {
  const nsSelect = el('select#maintenance-namespace', { name: 'namespace' }, namespaces.map((n) => el('option', { value: n.name }, n.name)));
  const out = el('div#maintenance-result');
  const run = (what, describe, details = () => null) => async () => {
    out.replaceChildren(notice('', what === 'flush' ? 'Flushing…' : 'Compacting…'));
    try {
      const a = await api('POST', `/api/v1/namespaces/${enc(nsSelect.value)}/${what}`);
      out.replaceChildren(notice('ok', describe(a), details(a)));
      if (what === 'compact') await compacted();
    } catch (e) {
      out.replaceChildren(notice('error', e.message));
    }
  };
  const flush = el('button#flush-now', { type: 'button', onclick: run('flush', (a) => `Flushed ${num(a.pointsFlushed)} points into `
    + `${num(a.segmentsWritten)} segments (${num(a.segments)} live) in ${num(a.durationMs)} ms.`) }, 'Flush now');
  const compact = el('button#compact-now', { type: 'button', onclick: run('compact', (a) => (a.groups === 0 ? 'Nothing to merge.'
    : `Merged ${num(a.groups)} groups: ${num(a.segmentsIn)} → ${num(a.segmentsOut)} segments, ${num(a.rowsIn)} → ${num(a.rowsOut)} rows, `
      + `${bytes(a.bytesIn)} → ${bytes(a.bytesOut)}`) + ` in ${num(a.durationMs)} ms.`, (a) => rollupLines(a.rollups)) }, 'Compact now');
  return el('div', {}, el('p.hint', {}, 'The engine flushes and compacts by itself; these run it now and tell what was done.'),
    el('div.row', {}, field('Namespace', nsSelect)), el('div.row', {}, flush, compact), out);
}

export async function render(root) {
  root.append(el('h1', {}, 'Rollups & lifecycle'));
  const namespaces = await api('GET', '/api/v1/namespaces?limit=1000');
  const rollups = namespaces.length ? await rollupsPanel(namespaces) : null;
  root.append(el('h2', {}, 'Rollups'), el('div.panel#rollups', {}, rollups || el('p.muted', {}, 'No namespaces.')));
  root.append(el('h2', {}, 'Hot and archived data'),
    el('div.panel', {}, namespaces.length ? tiers(namespaces) : el('p.muted', {}, 'No namespaces.'),
      el('p.hint', {}, 'Hot data is on the service’s disk; archived data is Parquet in the cold tier. As last reported (every few seconds after writes and archiving passes).')));
  if (namespaces.length) root.append(el('h2', {}, 'Flush and compact now'), el('div.panel', {}, maintenance(namespaces, () => rollups.reload())));
  root.append(el('h2', {}, 'Delete data'));
  if (!namespaces.length) {
    root.append(el('div.panel', {}, el('p.muted', {}, 'No namespaces.')));
    return;
  }
  root.append(el('div.panel', {}, el('p', {}, 'A delete always counts first: the count runs as an ordinary query over the same '
    + 'measurement, tags and time range, and only then can you delete.'), await deleteForm(namespaces)));
}
