// Data explorer: measurements and their columns, SQL with the namespace's tables offered, results
// as a table and a time-series chart, CSV download, and how to write here.
import { api, ApiError, enc } from '../api.js';
import { timeChart } from '../chart.js';
import { bytes, el, field, notice, num, table } from '../ui.js';
import { go } from '../router.js';

const NUMERIC = /^(DOUBLE|FLOAT|REAL|BIGINT|INTEGER|SMALLINT|TINYINT|UBIGINT|UINTEGER|USMALLINT|UTINYINT|HUGEINT|UHUGEINT|DECIMAL.*)$/;
const TIME = /^(TIMESTAMP.*|DATE)$/;
const SHOW_ROWS = 1000;
const MAX_SERIES = 24;

const quote = (name) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : '"' + name.replaceAll('"', '""') + '"');

/** The X-Chronix-Scan header: per measurement `name;rows=…;bytes=…;…`, entries separated by commas. */
export function scanBytes(header) {
  let total = 0;
  for (const m of (header || '').matchAll(/bytes=(\d+)/g)) total += Number(m[1]);
  return total;
}

/**
 * The chart's data from a query answer: x = the time column (seconds), one series per numeric
 * column and per combination of the string columns' values (a tag set), gaps as null.
 */
export function chartData(columns, rows) {
  const t = columns.findIndex((c) => TIME.test(c.type));
  const values = columns.map((c, i) => (NUMERIC.test(c.type) ? i : -1)).filter((i) => i >= 0);
  if (t < 0 || values.length === 0 || rows.length === 0) return null;
  const keys = columns.map((c, i) => (c.type === 'VARCHAR' ? i : -1)).filter((i) => i >= 0);
  const times = [...new Set(rows.map((r) => Date.parse(r[t]) / 1000))].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const index = new Map(times.map((x, i) => [x, i]));
  const series = new Map();
  let truncated = false;
  for (const r of rows) {
    const at = index.get(Date.parse(r[t]) / 1000);
    if (at === undefined) continue;
    const key = keys.map((k) => `${columns[k].name}=${r[k]}`).join(',');
    for (const v of values) {
      const label = (key ? key + ' ' : '') + columns[v].name;
      let s = series.get(label);
      if (!s) {
        if (series.size >= MAX_SERIES) { truncated = true; continue; }
        s = { label, values: new Array(times.length).fill(null) };
        series.set(label, s);
      }
      const x = r[v];
      s.values[at] = x === null ? null : Number(x);
    }
  }
  return { times, series: [...series.values()], truncated };
}

function sqlError(e, sql) {
  const p = e.problem || {};
  const parts = [el('p', {}, el('strong', {}, (p.errorType || p.title || 'Error') + ': '), p.detail || e.message)];
  if (Number.isInteger(p.position) && p.position >= 0 && p.position <= sql.length) {
    const before = sql.slice(0, p.position);
    const lineNo = before.split('\n').length;
    const lineStart = before.lastIndexOf('\n') + 1;
    const lineEnd = sql.indexOf('\n', p.position);
    const line = sql.slice(lineStart, lineEnd < 0 ? sql.length : lineEnd);
    const col = p.position - lineStart;
    parts.push(el('p.small', {}, `At line ${lineNo}, column ${col + 1}:`),
      el('pre#sql-error-position', {}, line + '\n', el('span.caret', {}, ' '.repeat(col) + '^')));
  }
  return el('div.notice.error#query-error', { role: 'alert' }, parts);
}

export async function render(root, params) {
  root.append(el('h1', {}, 'Data explorer'));
  const namespaces = await api('GET', '/api/v1/namespaces?limit=1000');
  if (namespaces.length === 0) {
    root.append(notice('', 'No namespaces yet. ', el('a', { href: '#/namespaces' }, 'Create one first.')));
    return;
  }
  const nsName = params.get('ns') && namespaces.some((n) => n.name === params.get('ns')) ? params.get('ns') : namespaces[0].name;
  const nsSelect = el('select#namespace', { name: 'namespace', onchange: () => go('explorer', { ns: nsSelect.value }) },
    namespaces.map((n) => el('option', { value: n.name, selected: n.name === nsName }, n.name)));
  root.append(el('div.row', {}, field('Namespace', nsSelect)));

  const base = '/api/v1/namespaces/' + enc(nsName);
  const measurements = await api('GET', base + '/measurements');
  const schemas = new Map();
  const columnsPlace = el('div#columns');
  const chips = el('div.chips', { 'aria-label': 'Tables and columns: insert at the cursor' });
  const editor = el('textarea.sql#sql', { name: 'sql', spellcheck: false, autocomplete: 'off', rows: 8 });
  const writeHelp = el('div#write-help');

  const insert = (text) => {
    const { selectionStart: a, selectionEnd: b, value } = editor;
    editor.value = value.slice(0, a) + text + value.slice(b);
    editor.selectionStart = editor.selectionEnd = a + text.length;
    editor.focus();
  };
  const showChips = (m) => {
    const cols = m ? schemas.get(m) || [] : [];
    chips.replaceChildren(...measurements.map((name) => el('button', { type: 'button', title: 'Insert table ' + name, onclick: () => insert(quote(name)) }, name)),
      ...cols.map((c) => el('button', { type: 'button', title: `Insert column ${c.name} (${c.kind}, ${c.type})`, onclick: () => insert(quote(c.name)) }, c.name)));
  };
  const pick = async (name, buttons) => {
    buttons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.measurement === name)));
    if (!schemas.has(name)) schemas.set(name, (await api('GET', base + '/measurements/' + enc(name))).columns);
    const cols = schemas.get(name);
    columnsPlace.replaceChildren(el('h3', {}, name), table(['column', 'kind', 'type'], cols.map((c) => el('tr', {},
      el('td.mono', {}, c.name), el('td.kind-' + c.kind, {}, c.kind), el('td.mono', {}, c.type)))));
    if (!editor.value.trim()) {
      const fields = cols.filter((c) => c.kind === 'field' && NUMERIC.test(c.type)).slice(0, 3).map((c) => quote(c.name));
      const tags = cols.filter((c) => c.kind === 'tag').slice(0, 1).map((c) => quote(c.name));
      editor.value = `SELECT time, ${[...tags, ...(fields.length ? fields : ['*'])].join(', ')}\nFROM ${quote(name)}\nORDER BY time\nLIMIT 10000`;
    }
    showChips(name);
    writeHelp.replaceChildren(...snippet(nsName, name, cols));
  };

  const tree = el('div.tree', { role: 'group', 'aria-label': 'Measurements' });
  const buttons = measurements.map((m) => el('button', { type: 'button', 'aria-pressed': 'false', dataset: { measurement: m }, onclick: () => pick(m, buttons) }, m));
  tree.append(...buttons);
  const side = el('div.panel', {}, el('h2', {}, 'Measurements'),
    measurements.length ? tree : el('p.muted#no-measurements', {}, 'Nothing written here yet.'), columnsPlace);

  const run = el('button.primary#run-query', { type: 'submit' }, 'Run');
  const csv = el('button#download-csv', { type: 'button' }, 'Download CSV');
  const stats = el('div.stats#query-stats', { role: 'status' });
  const result = el('div#query-result');
  const chart = el('div.chart#query-chart', { hidden: true });
  const form = el('form#query-form', {}, field('SQL', editor, 'Ctrl+Enter (⌘+Enter) runs it. Every measurement of the namespace is a table.'),
    chips, el('div.row', {}, run, csv), stats);
  editor.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
  });

  let controller = null;
  const query = async (accept) => {
    controller?.abort();
    controller = new AbortController();
    const sql = editor.value;
    const t0 = performance.now();
    const r = await api('POST', base + '/query', { body: { sql }, accept, raw: true, signal: controller.signal });
    return { r, sql, t0 };
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    run.disabled = true;
    stats.textContent = 'Running…';
    try {
      const { r, t0 } = await query('application/json');
      const answer = await r.json();
      const ms = performance.now() - t0;
      const scanned = r.headers.get('X-Chronix-Scan-Rows');
      stats.replaceChildren(el('span#stat-duration', {}, `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`),
        el('span#stat-rows', {}, `${num(answer.rows.length)} rows`),
        el('span#stat-scanned', {}, `${num(scanned === null ? null : Number(scanned))} rows scanned`),
        el('span#stat-bytes', {}, `${bytes(scanBytes(r.headers.get('X-Chronix-Scan')))} scanned`));
      const shown = answer.rows.slice(0, SHOW_ROWS);
      const grid = table(answer.columns.map((c) => `${c.name} (${c.type})`), shown.map((row) => el('tr', {},
        row.map((v, i) => el('td' + (NUMERIC.test(answer.columns[i].type) ? '.num' : ''), {},
          v === null ? el('span.muted', {}, 'NULL') : TIME.test(answer.columns[i].type) ? el('time', { datetime: v, title: 'UTC ' + v }, new Date(v).toLocaleString()) : String(v))))),
      { numeric: answer.columns.map((c, i) => (NUMERIC.test(c.type) ? i : -1)) });
      grid.classList.add('scroll');
      result.replaceChildren(...[answer.rows.length > SHOW_ROWS
        ? notice('', `Showing the first ${num(SHOW_ROWS)} of ${num(answer.rows.length)} rows; the chart and the CSV have all of them.`) : null, grid]
        .filter(Boolean));
      const data = chartData(answer.columns, answer.rows);
      chart.hidden = !data;
      if (data) {
        timeChart(chart, data.times, data.series);
        if (data.truncated) chart.append(el('p.hint', {}, `Only the first ${MAX_SERIES} series are drawn.`));
      } else {
        chart.replaceChildren();
      }
    } catch (e) {
      if (e.name === 'AbortError') return;
      stats.textContent = '';
      chart.hidden = true;
      result.replaceChildren(e instanceof ApiError ? sqlError(e, editor.value) : notice('error', e.message));
    } finally {
      run.disabled = false;
    }
  });
  csv.addEventListener('click', async () => {
    try {
      const { r } = await query('text/csv');
      const url = URL.createObjectURL(await r.blob());
      const a = el('a', { href: url, download: `${nsName}-query.csv` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) {
      if (e.name !== 'AbortError') result.replaceChildren(e instanceof ApiError ? sqlError(e, editor.value) : notice('error', e.message));
    }
  });

  root.append(el('div.explorer', {}, side, el('div', {}, el('div.panel', {}, form), el('div.panel', {}, chart, result),
    el('h2', {}, 'How do I write here?'), el('div.panel', {}, writeHelp))));
  writeHelp.replaceChildren(...snippet(nsName, null, []));
  showChips(null);
  if (measurements.length) await pick(params.get('m') && measurements.includes(params.get('m')) ? params.get('m') : measurements[0], buttons);
}

const escapeKey = (s) => s.replace(/([,= ])/g, '\\$1');
const sampleValue = (c, i) => {
  if (c.type === 'BIGINT') return `${42 + i}i`;
  if (c.type === 'UBIGINT') return `${42 + i}u`;
  if (c.type === 'BOOLEAN') return 'true';
  if (c.type === 'VARCHAR') return '"ok"';
  return (0.5 + i).toFixed(1);
};

/** A line of line protocol in the measurement's shape, and a curl command that writes it. */
function snippet(ns, measurement, columns) {
  const tags = columns.filter((c) => c.kind === 'tag');
  const fields = columns.filter((c) => c.kind === 'field');
  const m = measurement || 'cpu';
  const tagPart = tags.length ? tags.map((t) => `,${escapeKey(t.name)}=${t.name === 'host' ? 'server01' : 'value'}`).join('') : ',host=server01';
  const fieldPart = fields.length ? fields.map((f, i) => `${escapeKey(f.name)}=${sampleValue(f, i)}`).join(',') : 'usage=0.5';
  const token = el('input#snippet-token', { type: 'text', placeholder: '$CHRONIX_TOKEN', autocomplete: 'off', spellcheck: false });
  const line = `${escapeKey(m)}${tagPart} ${fieldPart}`;
  const pre = el('pre#write-snippet');
  const update = () => {
    const t = token.value.trim() || '$CHRONIX_TOKEN';
    const ts = Date.now() * 1e6;
    pre.textContent = `curl -i -X POST "${window.location.origin}/api/v1/namespaces/${ns}/write?precision=ns" \\\n`
      + `  -H "Authorization: Bearer ${t}" \\\n  --data-binary '${line.replaceAll("'", "'\\''")} ${ts}'`;
  };
  token.addEventListener('input', update);
  update();
  return [el('p', {}, 'Points are InfluxDB line protocol: ', el('code', {}, 'measurement,tag=value field=1.5 timestamp'),
    '. Telegraf and Influx clients work unchanged (', el('code', {}, '/api/v2/write?bucket=' + ns), ').'),
  el('p', {}, 'You need a token with ', el('code', {}, 'write:' + ns), ': ', el('a', { href: '#/tokens?scope=' + enc('write:' + ns) }, 'create one'),
    ', then paste it here to get a ready command.'),
  field('Token for the command', token, 'Only used to fill in the command below; it is not stored.'), pre,
  el('p.small.muted', {}, 'An answer of 204 means every point is durable. Leave the timestamp out to use the time of arrival.')];
}
