import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import type { RecordedCasesBatch } from '../../core/wire.ts';
import { publishPatch } from '../../worker/patch-publisher.ts';
import { offeredDecisions } from '../../service/patch-lifecycle.ts';
import { ADMIN_TOKEN, failureReport, recordedBatch, startHarness, until } from '../../testkit/service-harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = fileURLToPath(new URL('../../docs/dashboard.png', import.meta.url));
/** Text an app could put in a block description: must show as text, never become an element. */
const HOSTILE = '<img src=x onerror="window.__pwned=1">discount & <b>tax</b>';

async function launch(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'suture-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: run test/dashboard/install-chromium.sh (as root, apt-get install chromium) to run the dashboard browser test`;

test('dashboard in headless Chromium: a bug and its pending patch appear live, approve makes it active', { skip, timeout: 60_000 }, async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const admin = (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => h.call(path, { token: ADMIN_TOKEN, body, method });
  assert.equal((await admin('/v1/admin/policies', { app: 'shop', blockId: 'order-total', policy: 'manual' }, 'PUT')).status, 200);

  const browser = await launch();
  t.after(() => browser.close());
  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });

  const response = await page.goto(`${h.url}/dashboard`);
  assert.equal(response?.status(), 200);
  const csp = response?.headers()['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.ok(!(await response!.text()).includes(ADMIN_TOKEN), 'no secret in the page');

  // A wrong token is refused and the form stays.
  await page.fill('#token-input', 'not-the-token');
  await page.click('#login-form button[type=submit]');
  await page.locator('#login-error').filter({ hasText: 'refused' }).waitFor({ timeout: 5000 });

  pageErrors.length = 0; // the refused token's 401
  page.on('response', (r) => {
    if (r.status() >= 400) pageErrors.push(`${r.status()} ${r.url()}`);
  });
  await page.fill('#token-input', ADMIN_TOKEN);
  await page.click('#login-form button[type=submit]');
  await page.locator('#status').filter({ hasText: 'live' }).waitFor({ timeout: 5000 });

  // The failure arrives after the page is open: it appears without a reload.
  assert.equal((await h.call('/v1/cases', { body: recordedBatch() })).status, 202);
  const ack = await (await h.call('/v1/failures', { body: failureReport() })).json();
  // Another block whose description and recorded values are hostile.
  const hostile: RecordedCasesBatch = {
    requestId: 'hostile-1', app: 'shop', instanceId: 'instance-1',
    blocks: [{ id: 'coupon', description: HOSTILE, source: 'function (code) {\n  return code.trim();\n}', calls: [{ args: [HOSTILE], result: HOSTILE, argsAfter: [HOSTILE], at: new Date().toISOString() }] }],
  };
  assert.equal((await h.call('/v1/cases', { body: hostile })).status, 202);
  const bugRow = page.locator(`tr[data-bug="${ack.fingerprint}"]`);
  await bugRow.waitFor({ timeout: 5000 });
  assert.match(await bugRow.innerText(), /TypeError/);
  await page.locator('#bug-detail table.cases').filter({ hasText: '"id":7' }).waitFor({ timeout: 5000 });

  await h.startWorker();
  const pending = page.locator('#patches tr[data-status="pending-approval"]');
  await pending.waitFor({ timeout: 25_000 });
  await page.locator(`#jobs tr[data-job="${ack.jobId}"]`).waitFor({ timeout: 5000 });
  const patchId = await pending.getAttribute('data-patch');
  assert.ok(patchId);
  const stored = await (await admin(`/v1/admin/patches/${patchId}`)).json();
  assert.equal(stored.status, 'pending-approval');
  // Its buttons are the decisions the lifecycle table allows from its status, no more, no fewer.
  const buttons = await pending.locator('button[data-action]').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.action));
  assert.deepEqual(buttons, offeredDecisions({ status: 'pending-approval', mode: 'fallback' }));
  assert.deepEqual(stored.decisions, buttons);
  // What the patch was checked against and its re-check before signing, as text.
  const e = stored.evidence;
  const evidence = await pending.locator('td.evidence').innerText();
  assert.ok(evidence.includes(`${e.failing} failing · ${e.recorded} recorded · ${e.generated} generated · ${e.tests} tests`), evidence);
  assert.ok(evidence.includes(`re-check ${e.recheck.total}/${e.recheck.total}`), evidence);
  assert.ok(!evidence.includes('failing inputs only'), 'recorded calls vouched for it');
  // The candidates of the finished job, with the winner's diff one click away.
  const winner = page.locator('#bug-detail details').filter({ hasText: 'winner' }).first();
  await winner.waitFor({ timeout: 5000 });
  await winner.locator('summary').click();
  assert.match(await winner.locator('pre.diff').innerText(), /^\+.*order/m);
  assert.ok(await winner.locator('table.trials tr').count() > 1, 'trial table shown');

  await page.click(`#patches button[data-action="approve"][data-patch="${patchId}"]`);
  const active = await until(async () => {
    const p = await (await admin(`/v1/admin/patches/${patchId}`)).json();
    return p.status === 'active' ? p : null;
  }, 5000);
  assert.equal(active.rollout, 1);
  await page.locator(`#patches tr[data-patch="${patchId}"][data-status="active"]`).waitFor({ timeout: 5000 });
  const audit = await (await admin('/v1/admin/audit')).json();
  assert.equal(audit.entries[0].action, 'approve');
  assert.equal(audit.entries[0].actor, 'dashboard');

  // The fix as source-control material, downloaded with the token.
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 5000 }), page.click(`#patches button[data-download="diff"][data-patch="${patchId}"]`)]);
  assert.match(download.suggestedFilename(), /\.diff$/);
  const diff = readFileSync((await download.path())!, 'utf8');
  assert.match(diff, /^-.*for \(const item of order\.items\)/m);
  assert.match(diff, /^\+.*order\.items \?\?/m);

  // Hostile text is shown as text: no element was created from it and its handler never ran.
  await page.locator('#blocks').filter({ hasText: HOSTILE }).waitFor({ timeout: 5000 });
  assert.equal(await page.locator('img').count(), 0);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.deepEqual(pageErrors, []);

  // Patched calls reach the chart.
  const outcome = { requestId: 'o-1', app: 'shop', instanceId: 'i-1', outcomes: [{ patchId, passed: 42, threw: 0 }] };
  assert.equal((await h.call('/v1/outcomes', { body: outcome })).status, 202);
  await page.locator('#chart .legend').filter({ hasText: 'passed 42' }).waitFor({ timeout: 5000 });
  assert.ok(await page.locator('#chart rect.bar-pass').count() >= 1);

  // A patch that only the failing inputs vouched for is flagged in its row.
  await h.worker!.close();
  const thinAck = await (await h.call('/v1/failures', { body: failureReport({ block: { id: 'order-count', description: 'number of items', source: 'function (order) {\n  return order.items.length;\n}' } }) })).json();
  const thinBug = (await h.daemon.context.store.getBug(thinAck.fingerprint))!;
  const thin = await publishPatch({
    store: h.daemon.context.store, keys: h.daemon.context.keys, config: h.config, bug: thinBug, round: 1,
    winner: { rank: 1, generator: 'template:null-safety', description: 'default `order.items`', prior: 0.5, suspect: false, source: 'function (order) {\n  return (order.items ?? []).length;\n}', diff: '', editSize: 6, status: 'plausible', passed: 1, total: 1, trials: [], ms: 1, score: 1 },
    evidence: { failing: 1, recorded: 0, generated: 0, tests: 0, recheck: { passed: 1, total: 1 } },
  });
  await page.locator(`#patches tr[data-patch="${thin.patchId}"] .evidence-warning`).filter({ hasText: '⚠ failing inputs only' }).waitFor({ timeout: 5000 });
  assert.equal(await page.locator('#patches .evidence-warning').count(), 1, 'only the thin patch is flagged');

  if (process.env.SUTURE_SCREENSHOT) {
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  }

  // A token in the fragment connects a new tab and is removed from the address bar at once.
  const tab = await browser.context.newPage();
  await tab.goto(`${h.url}/dashboard#token=${encodeURIComponent(ADMIN_TOKEN)}&app=shop`);
  await tab.locator(`#patches tr[data-patch="${patchId}"]`).waitFor({ timeout: 5000 });
  assert.ok(!tab.url().includes(ADMIN_TOKEN));
});
