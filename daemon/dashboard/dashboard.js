// suture dashboard: plain browser JavaScript, no build step. Everything shown here comes from the
// admin API, and block source, diffs, inputs and messages come from the apps being repaired, which
// may be hostile: text is only ever set through textContent / text nodes, never as HTML.
'use strict';

const POLL_MS = 1500;
const TOKEN_KEY = 'suture.adminToken';
const APP_KEY = 'suture.app';
const SVG_NS = 'http://www.w3.org/2000/svg';
const CHART_MINUTES = 15;

const state = {
  token: sessionStorage.getItem(TOKEN_KEY) || '',
  app: sessionStorage.getItem(APP_KEY) || '',
  apps: [],
  selectedBug: '',
  /** Keys of <details> the user opened, so a re-render keeps them open. */
  open: new Set(),
  /** Last rendered JSON per section: a section is rebuilt only when its data changed. */
  rendered: new Map(),
  timer: 0,
  busy: false,
};

const $ = (id) => document.getElementById(id);

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// ---------------------------------------------------------------- DOM helpers (text only)

/** el('td', { className: 'x', title: '…', on: { click } }, 'text', child, …): never parses HTML. */
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  applyProps(node, props);
  append(node, children);
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  append(node, children);
  return node;
}

function applyProps(node, props) {
  if (!props) return;
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'className') node.className = v;
    else if (k === 'on') for (const [event, fn] of Object.entries(v)) node.addEventListener(event, fn);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'disabled' || k === 'open' || k === 'hidden') node[k] = Boolean(v);
    else node.setAttribute(k, String(v));
  }
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

function replace(container, ...children) {
  container.replaceChildren();
  append(container, children);
}

function table(headers, rows, className) {
  return el('table', { className: className || '' },
    el('thead', null, el('tr', null, headers.map((h) => el('th', null, h)))),
    el('tbody', null, rows));
}

function empty(text) {
  return el('p', { className: 'empty' }, text);
}

/** A <details> whose open state survives re-renders. */
function details(key, summary, ...body) {
  const d = el('details', { open: state.open.has(key), dataset: { key } }, el('summary', null, summary), body);
  d.addEventListener('toggle', () => (d.open ? state.open.add(key) : state.open.delete(key)));
  return d;
}

function badge(status) {
  return el('span', { className: `badge s-${String(status).replace(/[^a-z-]/g, '')}` }, status);
}

const short = (id, n = 12) => (String(id).length > n ? `${String(id).slice(0, n)}…` : String(id));

function preview(value, max = 240) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = String(value);
  }
  if (text === undefined) text = 'undefined';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function time(ms) {
  if (!ms) return '';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour12: false });
}

const fixed = (x) => String(Math.round(Number(x) * 1000) / 1000);

const percent = (x) => `${Math.round(Number(x) * 1000) / 10}%`;

// ---------------------------------------------------------------- API

async function api(path, init = {}) {
  const headers = { authorization: `Bearer ${state.token}`, 'x-suture-actor': 'dashboard' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method: init.method || 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    cache: 'no-store',
    credentials: 'omit',
  });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data && data.code, (data && data.message) || `HTTP ${res.status}`);
  return data;
}

const q = (app) => `app=${encodeURIComponent(app)}`;

// ---------------------------------------------------------------- token

function readFragment() {
  if (!location.hash || location.hash.length < 2) return;
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('token');
  const app = params.get('app');
  if (token) saveToken(token);
  if (app) setApp(app);
  // The token must not stay in the address bar, the history or a shared screenshot.
  history.replaceState(null, '', location.pathname + location.search);
}

function saveToken(token) {
  state.token = token.trim();
  sessionStorage.setItem(TOKEN_KEY, state.token);
}

function setApp(app) {
  state.app = app;
  sessionStorage.setItem(APP_KEY, app);
}

function showLogin(message) {
  stopPolling();
  $('login').hidden = false;
  $('main').hidden = true;
  $('forget-token').hidden = true;
  const error = $('login-error');
  error.hidden = !message;
  error.textContent = message || '';
  setStatus('not connected', 'idle');
  $('token-input').focus();
}

function setStatus(text, kind) {
  const s = $('status');
  s.textContent = text;
  s.className = `status ${kind}`;
}

// ---------------------------------------------------------------- polling

function startPolling() {
  $('login').hidden = true;
  $('main').hidden = false;
  $('forget-token').hidden = false;
  stopPolling();
  void tick();
}

function stopPolling() {
  clearTimeout(state.timer);
  state.timer = 0;
}

async function tick() {
  if (state.busy) return;
  state.busy = true;
  try {
    await refresh();
    setStatus(`live · ${time(Date.now())}`, 'ok');
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      state.busy = false;
      sessionStorage.removeItem(TOKEN_KEY);
      state.token = '';
      showLogin(`The daemon refused the token: ${error.message}`);
      return;
    }
    setStatus(`cannot reach the daemon: ${error.message}`, 'bad');
  }
  state.busy = false;
  state.timer = setTimeout(tick, POLL_MS);
}

async function refresh() {
  const { apps } = await api('/v1/admin/apps');
  state.apps = apps;
  if (!apps.includes(state.app) && apps.length) setApp(apps[0]);
  renderApps();
  if (!state.app) {
    for (const id of ['patches', 'bugs', 'jobs', 'blocks', 'bug-detail', 'chart']) once(id, 'none', () => replace($(id), empty('No app has reported anything yet.')));
    await renderAudit();
    return;
  }
  const app = state.app;
  const [blocks, bugs, jobs, patches, activity, audit] = await Promise.all([
    api(`/v1/admin/blocks?${q(app)}`),
    api(`/v1/admin/bugs?${q(app)}`),
    api('/v1/admin/jobs?limit=50'),
    api(`/v1/admin/patches?${q(app)}`),
    api(`/v1/admin/activity?${q(app)}&minutes=${CHART_MINUTES}`),
    api('/v1/admin/audit?limit=15'),
  ]);
  if (app !== state.app) return;
  if (!bugs.bugs.some((b) => b.fingerprint === state.selectedBug)) state.selectedBug = bugs.bugs[0] ? bugs.bugs[0].fingerprint : '';
  const detail = state.selectedBug ? await api(`/v1/admin/bugs/${encodeURIComponent(state.selectedBug)}`).catch(() => null) : null;

  once('chart', activity, () => renderChart(activity));
  once('patches', patches, () => renderPatches(patches.patches));
  once('bugs', [bugs, state.selectedBug], () => renderBugs(bugs.bugs));
  once('jobs', { list: jobs.jobs.filter((j) => j.data && j.data.app === app), counts: jobs.counts }, (d) => renderJobs(d.list, d.counts));
  once('bug-detail', detail, () => renderBugDetail(detail));
  once('blocks', blocks, () => renderBlocks(blocks.blocks));
  once('audit', audit, () => renderAuditEntries(audit.entries));
}

/** Re-renders a section only when its data changed, so open <details> and scroll stay put. */
function once(section, data, render) {
  const json = JSON.stringify(data);
  if (state.rendered.get(section) === json) return;
  state.rendered.set(section, json);
  render(data);
}

// ---------------------------------------------------------------- sections

function renderApps() {
  const select = $('app-select');
  const current = [...select.options].map((o) => o.value).join('\n');
  if (current !== state.apps.join('\n')) replace(select, state.apps.map((a) => el('option', { value: a }, a)));
  select.value = state.app;
}

function renderPatches(patches) {
  const list = [...patches].sort((a, b) => b.updatedAt - a.updatedAt);
  if (!list.length) return replace($('patches'), empty('No patch yet.'));
  const rows = list.map((p) => {
    const score = p.score || {};
    // The decisions the daemon's lifecycle table allows from this patch's status (admin API `decisions`).
    const decisions = Array.isArray(p.decisions) ? p.decisions : [];
    return el('tr', { dataset: { patch: p.id, status: p.status } },
      el('td', { className: 'mono', title: p.id }, short(p.id, 20)),
      el('td', { className: 'mono' }, p.blockId, el('span', { className: 'hint' }, ` v${p.version}`)),
      el('td', null, badge(p.status)),
      el('td', null, rolloutBar(p.rollout)),
      el('td', { className: 'mono small' }, score.generator || ''),
      el('td', { className: 'small', title: score.description || '' }, short(score.description || '', 60)),
      el('td', { className: 'num' }, `${score.passed}/${score.total}`),
      evidenceCell(p),
      el('td', { className: 'num' }, el('span', { className: 'ok-text' }, String(p.passed)), ' / ', el('span', { className: 'bad-text' }, String(p.threw))),
      el('td', { className: 'small' }, time(p.updatedAt)),
      el('td', { className: 'actions' },
        decisions.map((action) =>
          el('button', { type: 'button', className: `act act-${action}`, dataset: { action, patch: p.id }, on: { click: () => decide(action, p.id) } }, action)),
        ['diff', 'test'].map((file) =>
          el('button', { type: 'button', className: 'act act-download', dataset: { download: file, patch: p.id }, title: file === 'diff' ? 'unified diff against the block, for source control' : 'regression test for node --test', on: { click: () => download(p.id, file) } }, `⇩ ${file}`))),
    );
  });
  replace($('patches'), table(['patch', 'block', 'status', 'rollout', 'generator', 'fix', 'cases', 'checked against', 'calls ✓/✗', 'updated', ''], rows, 'patches'));
}

/** Cases the patch was checked against by kind and its re-check before signing; thin evidence is flagged. */
function evidenceCell(p) {
  const e = p.evidence;
  if (!e || !e.recheck) return el('td', { className: 'small hint evidence' }, 'no evidence recorded');
  const counts = `${e.failing} failing · ${e.recorded} recorded · ${e.generated} generated · ${e.tests} tests`;
  return el('td', { className: 'small evidence' },
    el('div', null, counts),
    el('div', { className: e.recheck.passed === e.recheck.total ? 'ok-text' : 'bad-text' }, `re-check ${e.recheck.passed}/${e.recheck.total}`),
    p.evidenceWarning ? el('div', { className: 'warn-text evidence-warning', title: 'no recorded call and no generated input vouched for this patch' }, `⚠ ${p.evidenceWarning}`) : null);
}

function rolloutBar(rollout) {
  const share = Math.max(0, Math.min(1, Number(rollout) || 0));
  const bar = svg('svg', { class: 'rollout', viewBox: '0 0 100 8', width: 80, height: 8, 'aria-hidden': 'true' },
    svg('rect', { x: 0, y: 0, width: 100, height: 8, rx: 3, class: 'rollout-bg' }),
    svg('rect', { x: 0, y: 0, width: share * 100, height: 8, rx: 3, class: 'rollout-fg' }));
  return el('span', { className: 'rollout-cell' }, bar, ` ${percent(share)}`);
}

async function decide(action, patchId) {
  const banner = $('action-error');
  banner.hidden = true;
  for (const b of document.querySelectorAll('button.act')) b.disabled = true;
  try {
    await api(`/v1/admin/patches/${encodeURIComponent(patchId)}/${action}`, { method: 'POST', body: { reason: 'from the dashboard' } });
  } catch (error) {
    banner.textContent = `${action} ${patchId}: ${error.message}`;
    banner.hidden = false;
  }
  state.rendered.delete('patches');
  stopPolling();
  void tick();
}

/** Fetches an export file with the token (a plain link could not send it) and saves it. */
async function download(patchId, file) {
  const banner = $('action-error');
  banner.hidden = true;
  try {
    const res = await fetch(`/v1/admin/patches/${encodeURIComponent(patchId)}/export?file=${file}`, { headers: { authorization: `Bearer ${state.token}` }, cache: 'no-store', credentials: 'omit' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') || '');
    const url = URL.createObjectURL(new Blob([await res.text()], { type: 'text/plain' }));
    const a = el('a', { href: url, download: name ? name[1] : `${patchId}.${file === 'diff' ? 'diff' : 'test.mjs'}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    banner.textContent = `export ${patchId}: ${error.message}`;
    banner.hidden = false;
  }
}

function renderBugs(bugs) {
  if (!bugs.length) return replace($('bugs'), empty('No failure reported.'));
  const rows = bugs.map((b) => el('tr', {
    className: b.fingerprint === state.selectedBug ? 'selected clickable' : 'clickable',
    dataset: { bug: b.fingerprint },
    title: 'show the failing inputs, job and candidates',
    on: { click: () => selectBug(b.fingerprint) },
  },
  el('td', { className: 'mono' }, b.blockId),
  el('td', null, el('span', { className: 'mono' }, b.errorName), ': ', short(b.firstMessage, 80)),
  el('td', { title: b.reason }, badge(b.status), b.unseen ? el('div', { className: 'small bad-text' }, `reads ${b.unseen.join(', ')}: pass in uses`) : null),
  el('td', { className: 'num' }, String(b.count)),
  el('td', { className: 'small' }, time(b.lastSeen))));
  replace($('bugs'), table(['block', 'error', 'status', 'seen', 'last'], rows, 'bugs'));
}

function selectBug(fp) {
  state.selectedBug = fp;
  state.rendered.delete('bugs');
  state.rendered.delete('bug-detail');
  stopPolling();
  void tick();
}

function renderJobs(jobs, counts) {
  const summary = el('p', { className: 'hint' }, Object.entries(counts || {}).filter(([, n]) => n).map(([s, n]) => `${s} ${n}`).join(' · ') || 'queue empty');
  if (!jobs.length) return replace($('jobs'), summary, empty('No repair job for this app.'));
  const rows = jobs.map((j) => {
    const p = j.progress && typeof j.progress === 'object' ? j.progress : {};
    const best = p.best ? `${p.best.generator} (${p.best.score === undefined ? '–' : fixed(p.best.score)})` : '';
    return el('tr', { dataset: { job: j.id } },
      el('td', { className: 'mono', title: j.id }, short(j.id, 14)),
      el('td', null, badge(j.state)),
      el('td', null, p.phase || ''),
      el('td', { className: 'num' }, p.failing !== undefined ? `${p.failing}/${p.cases}` : (p.cases ?? '')),
      el('td', { className: 'num' }, String(p.tried ?? 0)),
      el('td', { className: 'num' }, String(p.plausible ?? 0)),
      el('td', { className: 'mono small' }, best),
      el('td', { className: 'small bad-text' }, j.failedReason || ''));
  });
  replace($('jobs'), summary, table(['job', 'state', 'phase', 'failing', 'tried', 'plausible', 'best', ''], rows, 'jobs'));
}

function renderBugDetail(detail) {
  const box = $('bug-detail');
  if (!detail) {
    $('bug-detail-title').textContent = 'select a bug';
    return replace(box, empty('No bug selected.'));
  }
  const { bug, cases, job, report } = detail;
  $('bug-detail-title').textContent = `${bug.blockId} · ${short(bug.fingerprint, 16)} · round ${bug.round}`;
  const facts = el('dl', { className: 'facts' },
    el('dt', null, 'error'), el('dd', { className: 'mono' }, `${bug.errorName}: ${bug.firstMessage}`),
    el('dt', null, 'status'), el('dd', null, badge(bug.status), bug.patchId ? el('span', { className: 'mono small' }, ` patch ${bug.patchId}`) : null),
    // Why no patch will come (no plausible candidate, refused at re-check, names suture cannot see).
    ...(bug.reason ? [el('dt', null, 'why'), el('dd', { className: bug.status === 'cannot-see' ? 'bad-text' : '' }, bug.reason)] : []),
    ...(bug.uses ? [el('dt', null, 'uses'), el('dd', { className: 'mono small' }, bug.uses.join(', '))] : []),
    el('dt', null, 'seen'), el('dd', null, `${bug.count} × · first ${time(bug.firstSeen)} · last ${time(bug.lastSeen)}`),
    el('dt', null, 'where'), el('dd', { className: 'mono small' }, bug.topFrame || '–'));

  const caseRows = cases.map((c, i) => el('tr', null,
    el('td', { className: 'num' }, String(i + 1)),
    el('td', null, el('code', { className: 'value' }, preview(c.args, 400)),
      // The SDK copied no entry state for this call: these are the inputs as the failed call left them.
      c.inputs === 'after-throw' ? el('div', { className: 'small' }, 'as left by the failed call') : null),
    el('td', { className: 'mono small' }, `${c.error.name}: ${short(c.error.message, 120)}`),
    el('td', { className: 'small' }, c.patchId ? `patched (${short(c.patchId, 10)})` : c.instanceId),
    el('td', { className: 'small' }, time(Date.parse(c.at)))));
  const inputs = [el('h3', null, `Failing inputs (${cases.length})`), cases.length ? table(['#', 'arguments', 'error', 'from', 'at'], caseRows, 'cases') : empty('none stored')];

  const jobPart = [el('h3', null, 'Repair job')];
  if (job) {
    const p = job.progress && typeof job.progress === 'object' ? job.progress : {};
    jobPart.push(el('p', null, badge(job.state), ` ${p.phase || ''} · tried ${p.tried ?? 0} · plausible ${p.plausible ?? 0} · attempt ${job.attemptsMade}/${job.attempts ?? '?'}`,
      job.failedReason ? el('span', { className: 'bad-text' }, ` · ${job.failedReason}`) : null));
  } else jobPart.push(empty('no job'));

  const candPart = [el('h3', null, 'Candidates')];
  if (report) {
    candPart.push(el('p', { className: 'hint' }, `${report.plausible ? 'plausible fix found' : 'no plausible fix'} · stopped by ${report.stoppedBy} · ${report.generated} generated, ${report.tried} tried, ${report.trials} trials in ${report.ms} ms · ${report.cases.failing}/${report.cases.total} cases failing before`));
    const winnerRank = report.winner ? report.winner.rank : -1;
    const render = (c) => renderCandidate(bug.fingerprint, report.round, c, c.rank === winnerRank);
    const plausible = report.candidates.filter((c) => c.status === 'plausible');
    const others = report.candidates.filter((c) => c.status !== 'plausible');
    candPart.push(report.candidates.length ? el('div', { className: 'candidates' },
      plausible.map(render),
      others.length ? details(`others:${bug.fingerprint}:${report.round}`, el('span', { className: 'hint' }, `${others.length} rejected candidates (failed a case or did not compile)`), el('div', { className: 'cand-body' }, others.map(render))) : null)
      : empty('no candidate kept'));
  } else candPart.push(empty(job && (job.state === 'active' || job.state === 'waiting') ? 'search in progress…' : 'no report yet'));

  replace(box, facts, inputs, jobPart, candPart);
}

function renderCandidate(fp, round, c, winner) {
  const head = el('span', { className: 'cand-head' },
    el('span', { className: 'num rank' }, `#${c.rank}`), ' ',
    winner ? el('span', { className: 'badge s-winner' }, 'winner') : null, ' ',
    badge(c.status), ' ',
    el('span', { className: 'mono' }, c.generator), ' ',
    el('span', null, c.description), ' ',
    el('span', { className: 'hint' }, `· ${c.passed}/${c.total} cases · edit ${c.editSize}${c.score !== undefined ? ` · score ${fixed(c.score)}` : ''} · ${Math.round(c.ms)} ms`));
  const trialRows = (c.trials || []).map((t) => el('tr', { className: t.verdict === 'pass' ? '' : 'trial-bad' },
    el('td', { className: 'mono small' }, t.caseId),
    el('td', null, badge(t.verdict)),
    el('td', { className: 'num' }, String(Math.round(t.ms * 10) / 10)),
    el('td', null, el('code', { className: 'value' }, t.error ? `${t.error.name}: ${t.error.message}` : t.actual !== undefined ? preview(t.actual, 200) : ''))));
  return details(`cand:${fp}:${round}:${c.rank}`, head,
    el('div', { className: 'cand-body' },
      c.diff ? diffView(c.diff) : empty('no diff'),
      c.compileError ? el('p', { className: 'bad-text mono small' }, preview(c.compileError, 400)) : null,
      trialRows.length ? table(['case', 'verdict', 'ms', 'result / error'], trialRows, 'trials') : empty('no trial run')));
}

function diffView(diff) {
  // The leading '====' rule of a unified diff carries nothing.
  const lines = String(diff).split('\n').filter((line) => !/^=+$/.test(line)).map((line) => {
    let cls = '';
    if (line.startsWith('+++') || line.startsWith('---')) cls = 'd-file';
    else if (line.startsWith('@@')) cls = 'd-hunk';
    else if (line.startsWith('+')) cls = 'd-add';
    else if (line.startsWith('-')) cls = 'd-del';
    return el('span', { className: `d-line ${cls}` }, line, '\n');
  });
  return el('pre', { className: 'diff' }, lines);
}

function renderBlocks(blocks) {
  if (!blocks.length) return replace($('blocks'), empty('No block seen yet.'));
  replace($('blocks'), blocks.map((b) => details(`block:${b.blockId}:${b.sourceHash}`,
    el('span', null,
      el('span', { className: 'mono' }, b.blockId), ' ',
      el('span', { className: 'hint' }, `${b.description} · ${b.failures} failures · ${b.recorded} recorded calls · ${short(b.sourceHash, 10)} · last ${time(b.lastSeen)}`)),
    el('pre', { className: 'source' }, b.source))));
}

async function renderAudit() {
  const audit = await api('/v1/admin/audit?limit=15');
  once('audit', audit, () => renderAuditEntries(audit.entries));
}

function renderAuditEntries(entries) {
  if (!entries.length) return replace($('audit'), empty('No decision yet.'));
  replace($('audit'), table(['at', 'actor', 'action', 'target', 'detail'], entries.map((e) => el('tr', null,
    el('td', { className: 'small' }, time(Date.parse(e.at))),
    el('td', null, e.actor),
    el('td', null, e.action),
    el('td', { className: 'mono small', title: e.target }, short(e.target, 24)),
    el('td', null, el('code', { className: 'value' }, e.detail ? preview(e.detail, 200) : '')))), 'audit'));
}

// ---------------------------------------------------------------- chart

/** The chart spans from the first activity (at least MIN_CHART_BUCKETS back) to now. */
const MIN_CHART_BUCKETS = 12;

function renderChart(activity) {
  const all = activity.buckets || [];
  const first = all.findIndex((b) => b.failures || b.passed || b.threw);
  const from = first < 0 ? all.length - MIN_CHART_BUCKETS : Math.min(first, all.length - MIN_CHART_BUCKETS);
  const buckets = all.slice(Math.max(0, from));
  const W = 960;
  const H = 180;
  const pad = { l: 36, r: 8, t: 10, b: 22 };
  const iw = W - pad.l - pad.r;
  const ih = H - pad.t - pad.b;
  const max = Math.max(1, ...buckets.map((b) => Math.max(b.failures, b.passed + b.threw)));
  const top = niceCeil(max);
  const step = iw / Math.max(1, buckets.length);
  const bar = Math.max(1, step / 2 - 0.5);
  const y = (v) => pad.t + ih - (v / top) * ih;

  const grid = [0, 0.5, 1].map((f) => [
    svg('line', { x1: pad.l, x2: W - pad.r, y1: y(top * f), y2: y(top * f), class: 'grid' }),
    svg('text', { x: pad.l - 6, y: y(top * f) + 4, class: 'axis', 'text-anchor': 'end' }, String(Math.round(top * f))),
  ]);
  const bars = buckets.map((b, i) => {
    const x = pad.l + i * step;
    const when = `${time(b.at)}: ${b.failures} failures, ${b.passed} patched calls passed, ${b.threw} threw`;
    const parts = [];
    if (b.failures) parts.push(svg('rect', { x, y: y(b.failures), width: bar, height: y(0) - y(b.failures), class: 'bar-fail' }, svg('title', null, when)));
    if (b.passed) parts.push(svg('rect', { x: x + bar, y: y(b.passed), width: bar, height: y(0) - y(b.passed), class: 'bar-pass' }, svg('title', null, when)));
    if (b.threw) parts.push(svg('rect', { x: x + bar, y: y(b.passed + b.threw), width: bar, height: y(b.passed) - y(b.passed + b.threw), class: 'bar-threw' }, svg('title', null, when)));
    return parts;
  });
  const labels = [];
  const every = Math.max(1, Math.round(buckets.length / 6));
  const shortSpan = buckets.length * (activity.bucketMs || 10_000) <= 10 * 60_000;
  const labelFormat = shortSpan ? { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false } : { hour: '2-digit', minute: '2-digit', hour12: false };
  buckets.forEach((b, i) => {
    if (i % every === 0) labels.push(svg('text', { x: pad.l + i * step, y: H - 6, class: 'axis' }, new Date(b.at).toLocaleTimeString([], labelFormat)));
  });
  const totals = buckets.reduce((t, b) => ({ failures: t.failures + b.failures, passed: t.passed + b.passed, threw: t.threw + b.threw }), { failures: 0, passed: 0, threw: 0 });
  const span = Math.max(1, Math.round((buckets.length * (activity.bucketMs || 10_000)) / 60_000));
  $('chart-window').textContent = `last ${span} min, ${Math.round((activity.bucketMs || 10_000) / 1000)} s buckets`;
  replace($('chart'),
    svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg', role: 'img', 'aria-label': 'failures and patched calls over time' },
      grid, svg('line', { x1: pad.l, x2: W - pad.r, y1: y(0), y2: y(0), class: 'axis-line' }), bars, labels),
    el('p', { className: 'legend' },
      el('span', { className: 'key key-fail' }), ` failures ${totals.failures}  `,
      el('span', { className: 'key key-pass' }), ` patched calls passed ${totals.passed}  `,
      el('span', { className: 'key key-threw' }), ` patched calls threw ${totals.threw}`));
}

function niceCeil(v) {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

// ---------------------------------------------------------------- start

function start() {
  readFragment();
  $('login-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $('token-input').value;
    if (!value.trim()) return;
    saveToken(value);
    $('token-input').value = '';
    startPolling();
  });
  $('forget-token').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    state.token = '';
    state.rendered.clear();
    showLogin('');
  });
  $('app-select').addEventListener('change', (event) => {
    setApp(event.target.value);
    state.selectedBug = '';
    state.rendered.clear();
    stopPolling();
    void tick();
  });
  if (state.token) startPolling();
  else showLogin('');
}

start();
