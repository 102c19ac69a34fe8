// Overview: usage against every quota, points written over the last day, the day's limit events.
import { api } from '../api.js';
import { timeChart } from '../chart.js';
import { bytes, duration, el, notice, num, table, time } from '../ui.js';

const limitNames = {
  maxSeries: 'Series', maxStoredBytes: 'Stored bytes', maxIngestPointsPerSecond: 'Ingest rate', maxNamespaces: 'Namespaces',
  maxRequestBytes: 'Request size',
};

/** A bar that turns amber at 80 % and red at 100 % of the limit. */
function quotaBar(title, used, limit, format, note) {
  const unlimited = limit === null || limit === undefined || limit < 0;
  const ratio = unlimited || limit === 0 ? 0 : used / limit;
  const state = ratio >= 1 ? 'red' : ratio >= 0.8 ? 'amber' : '';
  const pct = Math.min(100, Math.round(ratio * 1000) / 10);
  return el('div.panel.quota' + (state ? '.' + state : ''), { dataset: { quota: title } },
    el('h3', {}, title),
    el('div.value', {}, `${format(used)} of ${unlimited ? 'unlimited' : format(limit)}`,
      state ? el('span.state', {}, state === 'red' ? ' · at the limit' : ' · over 80 %') : null),
    el('div.bar' + (state ? '.' + state : ''), { role: 'meter', 'aria-label': title + ' used', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': pct },
      el('span', { style: `width: ${pct}%` })),
    el('p.hint', {}, unlimited ? 'No limit set.' : `${pct} % used.`, note ? ' ' + note : ''));
}

export async function render(root) {
  root.append(el('h1', {}, 'Overview'));
  const [usage, activity] = await Promise.all([api('GET', '/api/v1/usage'), api('GET', '/api/v1/usage/activity')]);
  const rate = Math.round(activity.ingestPointsPerSecond * 10) / 10;
  root.append(el('h2', {}, 'Usage against quotas'),
    el('div.grid', {},
      quotaBar('Series', usage.maxSeries.used, usage.maxSeries.limit, num),
      quotaBar('Stored bytes (hot + cold)', usage.maxStoredBytes.used, usage.maxStoredBytes.limit, bytes,
        'Reported every few seconds.'),
      quotaBar('Ingest rate (points/s)', rate, usage.maxIngestPointsPerSecond.limit, num, 'Average over the last minute.'),
      quotaBar('Namespaces', usage.maxNamespaces.used, usage.maxNamespaces.limit, num)),
    el('p.small.muted', {}, `Other limits: request size ${bytes(usage.maxRequestBytes.limit)}, retention up to `
      + `${duration(usage.maxRetention.limit)} (longest in use: ${duration(usage.maxRetention.used)}), query timeout `
      + `${duration(usage.queryTimeout.limit)}, ${num(usage.maxConcurrentQueries.limit)} concurrent queries.`));

  const chart = el('div.chart#points-chart', { role: 'img', 'aria-label': 'Points written per 5 minutes over the last 24 hours' });
  const total = activity.points.reduce((a, b) => a + b.points, 0);
  root.append(el('h2', {}, 'Points written, last 24 h'),
    el('div.panel', {}, el('p.small.muted', {}, `${num(total)} points in 5-minute buckets, from `, time(activity.from), ' to ',
      time(activity.to), '. Counted by this server since it started.'), chart));
  timeChart(chart, activity.points.map((p) => Date.parse(p.start) / 1000), [{ label: 'points', values: activity.points.map((p) => p.points) }],
    { height: 220, bars: true, yLabel: 'points', legend: false });

  root.append(el('h2', {}, 'Limit events, last 24 h'));
  const events = activity.limitEvents;
  if (events.length === 0) {
    root.append(el('div.panel', {}, el('p#no-limit-events', {}, 'No write was refused by a quota in the last 24 hours.')));
    return;
  }
  root.append(el('div.panel', {},
    el('p', {}, Object.entries(activity.limitEventsByLimit).map(([k, v]) => `${limitNames[k] || k}: ${num(v)}`).join(' · ')),
    table(['when', 'status', 'limit', 'error'], events.slice(0, 100).map((e) => el('tr', {},
      el('td', {}, time(e.at)), el('td', {}, String(e.status)), el('td', {}, limitNames[e.limit] || e.limit), el('td.mono', {}, e.errorId))))));
  if (events.length > 100) root.append(notice('', `Showing the newest 100 of ${events.length}.`));
}
