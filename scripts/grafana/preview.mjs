#!/usr/bin/env node
// Draws deploy/grafana/cellport.json's panels from a real Prometheus into one PNG, for docs/ and for checking the
// dashboard where Grafana itself cannot be installed (Grafana is not in Debian's archive). Every query the dashboard
// holds is run as Grafana would run it: each variable on "All" (the values its label_values() query finds, as a
// regex), $__rate_interval as four scrape intervals. A query that Prometheus refuses fails the run, so the picture
// also proves the dashboard's PromQL is valid.
//
//   node scripts/grafana/preview.mjs [--prometheus http://127.0.0.1:9090] [--minutes 30] [--scrape 5]
//                                    [--out docs/images/grafana-dashboard.png]
import { readFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({
  options: {
    prometheus: { type: 'string', default: 'http://127.0.0.1:9090' },
    minutes: { type: 'string', default: '30' },
    scrape: { type: 'string', default: '5' },
    dashboard: { type: 'string', default: join(root, 'deploy/grafana/cellport.json') },
    out: { type: 'string', default: join(root, 'docs/images/grafana-dashboard.png') },
  },
});

const dashboard = JSON.parse(readFileSync(args.dashboard, 'utf8'));
const end = Math.floor(Date.now() / 1000);
const start = end - Number(args.minutes) * 60;
const step = Math.max(Number(args.scrape), Math.ceil((end - start) / 240));

/** A value as a regex inside a PromQL string, escaped as Grafana escapes it (the backslash doubled for the string). */
const escapeRegex = (value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\\\$&');

/** The query with $__rate_interval and the variables resolved so far put in. */
function resolveQuery(expr, variables) {
  return expr
    .replaceAll('$__rate_interval', `${4 * Number(args.scrape)}s`)
    .replace(/\$\{?([a-z_]+)\}?/g, (whole, name) => variables.get(name) ?? whole);
}

/** Each query variable on "All": its label_values(selector, label) values over the window, joined as a regex. */
async function resolveVariables() {
  const variables = new Map();
  for (const variable of dashboard.templating.list) {
    if (variable.type !== 'query') continue;
    const match = /^label_values\((.+),\s*(\w+)\)$/.exec(variable.definition);
    if (!match) throw new Error(`${variable.name}: only label_values(selector, label) is supported`);
    const url = new URL(`/api/v1/label/${match[2]}/values`, args.prometheus);
    url.search = new URLSearchParams({ 'match[]': resolveQuery(match[1], variables), start, end }).toString();
    const body = await (await fetch(url)).json();
    if (body.status !== 'success') throw new Error(`Prometheus refused ${variable.definition}: ${body.error}`);
    variables.set(variable.name, `(${body.data.map(escapeRegex).join('|')})`);
  }
  return variables;
}
const variables = await resolveVariables();

async function queryRange(expr) {
  const url = new URL('/api/v1/query_range', args.prometheus);
  url.search = new URLSearchParams({ query: resolveQuery(expr, variables), start, end, step }).toString();
  const body = await (await fetch(url)).json();
  if (body.status !== 'success') throw new Error(`Prometheus refused ${expr}: ${body.error}`);
  return body.data.result;
}

const legendOf = (format, labels) => (format ?? '').replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) => labels[name] ?? '') || JSON.stringify(labels);

const panels = [];
for (const panel of dashboard.panels) {
  if (panel.type === 'row') { panels.push({ row: true, title: panel.title, gridPos: panel.gridPos }); continue; }
  const series = [];
  for (const target of panel.targets) {
    for (const s of await queryRange(target.expr)) {
      series.push({ name: legendOf(target.legendFormat, s.metric), points: s.values.map(([t, v]) => [t, Number(v)]) });
    }
  }
  panels.push({ title: panel.title, gridPos: panel.gridPos, unit: panel.fieldConfig?.defaults?.unit ?? 'short', series });
}

const html = `<!doctype html><meta charset="utf-8"><style>
  body { margin: 0; background: #111217; color: #ccccdc; font: 12px/1.4 system-ui, sans-serif; }
  .grid { display: grid; grid-template-columns: repeat(24, 1fr); grid-auto-rows: 30px; gap: 8px; padding: 8px; width: 1600px; }
  .row { font-size: 15px; font-weight: 600; color: #d8d9da; align-self: end; }
  .panel { background: #181b1f; border: 1px solid #2c3235; border-radius: 2px; padding: 6px 8px; display: flex; flex-direction: column; overflow: hidden; }
  .panel h2 { margin: 0 0 4px; font-size: 12px; font-weight: 500; color: #d8d9da; }
  svg { flex: 1; width: 100%; }
  .legend { display: flex; flex-wrap: wrap; gap: 2px 10px; max-height: 44px; overflow: hidden; }
  .legend span::before { content: ''; display: inline-block; width: 10px; height: 3px; margin-right: 4px; vertical-align: middle; background: var(--c); }
  .empty { margin: auto; color: #8e8e8e; }
  header { padding: 10px 12px 0; font-size: 18px; color: #d8d9da; }
  header small { font-size: 12px; color: #8e8e8e; margin-left: 12px; }
</style><header>${dashboard.title}<small>last ${args.minutes} minutes · drawn by scripts/grafana/preview.mjs from Prometheus</small></header>
<div class="grid" id="grid"></div>
<script>
const panels = ${JSON.stringify(panels)};
const colors = ['#73bf69', '#f2cc0c', '#5794f2', '#ff9830', '#f2495c', '#b877d9', '#8ab8ff', '#fade2a', '#96d98d', '#ffb357'];
const units = {
  bytes: (v) => bytes(v, ''), Bps: (v) => bytes(v, '/s'), binBps: (v) => bytes(v, '/s'),
  s: (v) => v >= 1 ? v.toFixed(2) + ' s' : (v * 1000).toPrecision(3) + ' ms',
  percentunit: (v) => (v * 100).toFixed(1) + '%', reqps: (v) => short(v) + ' req/s', ops: (v) => short(v) + '/s',
  cps: (v) => short(v) + '/s', short: (v) => short(v),
};
function short(v) { const a = Math.abs(v); return a >= 1e6 ? (v / 1e6).toFixed(1) + 'M' : a >= 1e3 ? (v / 1e3).toFixed(1) + 'K' : +v.toPrecision(3) + ''; }
function bytes(v, suffix) { const u = ['B', 'KiB', 'MiB', 'GiB']; let i = 0; while (Math.abs(v) >= 1024 && i < 3) { v /= 1024; i++; } return +v.toPrecision(3) + ' ' + u[i] + suffix; }
const grid = document.getElementById('grid');
for (const p of panels) {
  const el = document.createElement('div');
  el.style.gridColumn = (p.gridPos.x + 1) + ' / span ' + p.gridPos.w;
  el.style.gridRow = (p.gridPos.y + 1) + ' / span ' + p.gridPos.h;
  if (p.row) { el.className = 'row'; el.textContent = p.title; grid.append(el); continue; }
  el.className = 'panel';
  const h = document.createElement('h2'); h.textContent = p.title; el.append(h);
  const fmt = units[p.unit] ?? units.short;
  const pts = p.series.flatMap((s) => s.points).filter(([, v]) => Number.isFinite(v));
  if (!pts.length) { const e = document.createElement('div'); e.className = 'empty'; e.textContent = 'No data'; el.append(e); grid.append(el); continue; }
  const t0 = Math.min(...pts.map((x) => x[0])), t1 = Math.max(...pts.map((x) => x[0]));
  const max = Math.max(...pts.map((x) => x[1]), 0) || 1;
  const W = 600, H = 200, L = 70, B = 18;
  const X = (t) => L + (t1 === t0 ? 0 : (t - t0) / (t1 - t0)) * (W - L - 4);
  const Y = (v) => 4 + (1 - v / max) * (H - B - 8);
  let svg = '<svg viewBox="0 0 ' + W + ' ' + H + '" preserveAspectRatio="none">';
  for (let i = 0; i <= 4; i++) {
    const v = max * i / 4, y = Y(v);
    svg += '<line x1="' + L + '" x2="' + W + '" y1="' + y + '" y2="' + y + '" stroke="#2c3235"/>';
    svg += '<text x="' + (L - 6) + '" y="' + (y + 4) + '" fill="#8e8e8e" font-size="11" text-anchor="end">' + fmt(v) + '</text>';
  }
  for (let i = 0; i <= 4; i++) {
    const t = t0 + (t1 - t0) * i / 4, d = new Date(t * 1000);
    svg += '<text x="' + X(t) + '" y="' + (H - 2) + '" fill="#8e8e8e" font-size="11" text-anchor="middle">' + d.toISOString().slice(11, 16) + '</text>';
  }
  const legend = document.createElement('div'); legend.className = 'legend';
  p.series.slice(0, 10).forEach((s, i) => {
    const c = colors[i % colors.length];
    const d = s.points.filter(([, v]) => Number.isFinite(v)).map(([t, v], j) => (j ? 'L' : 'M') + X(t).toFixed(1) + ' ' + Y(v).toFixed(1)).join('');
    svg += '<path d="' + d + '" fill="none" stroke="' + c + '" stroke-width="1.5" vector-effect="non-scaling-stroke"/>';
    const item = document.createElement('span'); item.style.setProperty('--c', c); item.textContent = s.name; legend.append(item);
  });
  el.insertAdjacentHTML('beforeend', svg + '</svg>');
  el.append(legend);
  grid.append(el);
}
</script>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1616, height: 900 } });
  await page.setContent(html);
  mkdirSync(dirname(args.out), { recursive: true });
  await page.screenshot({ path: args.out, fullPage: true });
  const empty = panels.filter((p) => !p.row && !p.series.length).map((p) => p.title);
  console.log(`wrote ${args.out}; panels without data: ${empty.length ? empty.join('; ') : 'none'}`);
} finally {
  await browser.close();
}
