// Small DOM helpers shared by the pages: element building, formatting, field errors, dialogs.

/** el('button.primary#run', {type: 'button', onclick}, 'Run') — tag, attributes/properties, children. */
export function el(spec, attrs = {}, ...children) {
  const [tag, ...parts] = spec.split(/(?=[.#])/);
  const e = document.createElement(tag);
  const classes = [];
  for (const p of parts) {
    if (p[0] === '#') e.id = p.slice(1);
    else classes.push(p.slice(1));
  }
  if (classes.length) e.className = classes.join(' ');
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'style') e.style.cssText = v; // CSSOM, which the Content-Security-Policy allows
    else if (k in e && typeof v !== 'string') e[k] = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

let uid = 0;
/** A labelled control with its hint and a slot for the API's message about it. */
export function field(label, control, hint) {
  control.id ||= 'f' + ++uid;
  const error = el('p.field-error', { id: control.id + '-error', hidden: true, role: 'alert' });
  const hintEl = hint ? el('p.hint', { id: control.id + '-hint' }, hint) : null;
  control.setAttribute('aria-describedby', [hintEl && hintEl.id, error.id].filter(Boolean).join(' '));
  const wrap = el('div.field', {}, el('label', { for: control.id }, label), control, hintEl, error);
  wrap.setError = (message) => {
    error.textContent = message || '';
    error.hidden = !message;
    control.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  return wrap;
}

export function notice(kind, ...content) {
  return el('div.notice' + (kind ? '.' + kind : ''), { role: kind === 'error' ? 'alert' : 'status' }, ...content);
}

const numberFormat = new Intl.NumberFormat();
export const num = (n) => (n === null || n === undefined ? '—' : numberFormat.format(n));

export function bytes(n) {
  if (n === null || n === undefined) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  let v = Number(n);
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return (i === 0 ? v : v.toFixed(v < 10 ? 2 : 1)) + ' ' + units[i];
}

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** A time in the browser's zone; the UTC instant on hover (and for screen readers, in datetime). */
export function time(iso) {
  if (!iso) return el('span.muted', {}, '—');
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return document.createTextNode(String(iso));
  return el('time', { datetime: iso, title: 'UTC ' + iso }, localFormat.format(d));
}

/** ISO-8601 durations as the API writes them (P30D, PT1H) in words. */
export function duration(iso) {
  if (!iso) return '—';
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?)?$/.exec(iso);
  if (!m) return iso;
  const parts = [];
  const [, d, h, mi, s] = m;
  if (d) parts.push(d + (d === '1' ? ' day' : ' days'));
  if (h) parts.push(h + ' h');
  if (mi) parts.push(mi + ' min');
  if (s) parts.push(s + ' s');
  return parts.join(' ') || iso;
}

/** A modal dialog; resolves true when confirmed. With `typed`, the confirm button waits for that exact text. */
export function confirmDialog({ title, body, confirm = 'Confirm', danger = false, typed = null }) {
  return new Promise((resolve) => {
    const input = typed ? el('input', { type: 'text', autocomplete: 'off', spellcheck: false }) : null;
    const ok = el('button' + (danger ? '.danger' : '.primary'), { type: 'submit', disabled: !!typed }, confirm);
    const cancel = el('button', { type: 'button' }, 'Cancel');
    const form = el('form', { method: 'dialog' },
      el('h2', {}, title), ...[body].flat(),
      typed ? field(`Type ${typed} to confirm`, input) : null,
      el('div.row', {}, cancel, ok));
    const dialog = el('dialog', { 'aria-label': title }, form);
    if (input) input.addEventListener('input', () => { ok.disabled = input.value !== typed; });
    cancel.addEventListener('click', () => dialog.close('cancel'));
    form.addEventListener('submit', (e) => { e.preventDefault(); if (!ok.disabled) dialog.close('ok'); });
    dialog.addEventListener('close', () => { dialog.remove(); resolve(dialog.returnValue === 'ok'); });
    document.body.append(dialog);
    dialog.showModal();
    (input || ok).focus();
  });
}

/** Copies text; falls back to selecting it where the clipboard API is not offered (plain http). */
export async function copy(text, fallbackNode) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallbackNode) {
      const range = document.createRange();
      range.selectNodeContents(fallbackNode);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
    return false;
  }
}

export function table(headers, rows, { numeric = [] } = {}) {
  return el('div.table-wrap', {}, el('table', {},
    el('thead', {}, el('tr', {}, headers.map((h, i) => el('th' + (numeric.includes(i) ? '.num' : ''), { scope: 'col' }, h)))),
    el('tbody', {}, rows)));
}
