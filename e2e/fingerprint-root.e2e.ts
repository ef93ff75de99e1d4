// Issue 30's "Done when" in a real browser: a customer picks Windows on Your Proxies and "What a site sees" reports
// Windows (p0f's label and JA4T) from the REAL fingerprint echo (Debian's p0f reading the SYN), while native still
// reports Linux. Nothing is faked: the server's embedded agent runs as root and applies the preset with its egress
// program on the loopback interface (decision 051, "Simulated modems"), and the echo is `npm run fingerprint-echo`,
// started here on a free port. Needs root, ip, nft, iptables and p0f: CI (CELLPORT_REQUIRE_ROOT_TESTS=1) fails here when one is
// missing; elsewhere the test is skipped by name.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FINGERPRINT_PRESETS } from '../packages/shared/src/fingerprint-presets.js';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import { buyDedicatedPort } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { t } from './support/locales.js';
import { repoRoot, useServer } from './support/server.js';

function missing(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root';
  for (const tool of ['ip', 'nft', 'iptables', 'p0f']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} is missing`;
    }
  }
  return null;
}
const why = missing();

if (process.env.CELLPORT_REQUIRE_ROOT_TESTS === '1' && why) {
  test('the fingerprint presets\' browser proof runs in CI (CELLPORT_REQUIRE_ROOT_TESTS=1)', () => {
    throw new Error(`It cannot run here: ${why}. CI must run it as root with ip, nftables, iptables and p0f (.ci/run installs them).`);
  });
}

describe.skipIf(why !== null)(`what a site sees, from the real echo through a preset applied as root${why ? ` (skipped: ${why})` : ''}`, () => {
  let echo: ChildProcess | undefined;
  const env: Record<string, string> = { MODEM_SIM_DELAY_MS: '300', MODEM_SIM_SAME_IP_RATE: '0', FINGERPRINT_CHECK_TIMEOUT_MS: '20000' };
  // Before the server's own beforeAll (hooks run in order): it reads the echo's address from `env`.
  beforeAll(async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps/agent/src/fingerprint-echo-main.ts'), '--host', '127.0.0.1', '--port', '0', '--iface', 'any'],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    echo = child;
    // Waiting for an outside process to start: its first line says where it listens.
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the fingerprint echo exited (${code}) before it listened`)));
      createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    });
    env.FINGERPRINT_ECHO_URL = `http://127.0.0.1:${port}/`;
  }, 30_000);
  afterAll(() => { echo?.kill('SIGTERM'); });
  const server = useServer({ name: 'fingerprint-root', env });
  const browser = useBrowser();

  async function runCheck(details: Locator) {
    const result = details.getByTestId('port-fingerprint-result');
    await details.getByTestId('port-fingerprint-check').click();
    await result.or(details.getByTestId('port-fingerprint-error')).waitFor();
    expect(await details.getByTestId('port-fingerprint-error').count(), await details.textContent() ?? '').toBe(0);
    const seen = async (field: string) => (await result.getByTestId(`port-fingerprint-row-${field}`).locator('td').nth(1).textContent())?.trim();
    return { result, seen };
  }

  test('a customer picks Windows and the real echo sees Windows (p0f and JA4T), native still Linux; desktop and phone', async () => {
    const { page } = browser;
    const windows = FINGERPRINT_PRESETS.windows;
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');
    await buyDedicatedPort(page.request, server.url);
    const [port] = (await (await page.request.get(`${server.url}/api/v1/modems`)).json()) as Port[];
    expect(port!.fingerprint).toMatchObject({ active: 'native', available: true });

    await page.goto(`${server.url}/en/proxies`);
    const card = page.getByTestId('port-card').first();
    const details = card.getByTestId('port-fingerprint');
    await card.getByTestId('port-quota').waitFor();
    await details.locator('summary').focus();
    await page.keyboard.press('Enter');

    // Native first: Linux, as the echo's p0f reads it. A port that answers is one the agent serves with its state.
    const native = await runCheck(details);
    expect(await native.seen('p0f')).toMatch(/Linux/);
    expect(await native.seen('options')).toBe('mss,sok,ts,nop,ws');
    expect(await native.seen('ttl')).toBe('64');

    // Windows, chosen with the keyboard, and checked at once: the check itself waits until the agent serves it.
    const select = details.getByLabel(t('en', 'proxies:fingerprint.label'));
    await select.focus();
    await select.selectOption({ label: t('en', 'proxies:fingerprint.presets.windows.name') });
    await expect.poll(() => details.getByTestId('port-fingerprint-active').textContent()).toBe(t('en', 'proxies:fingerprint.presets.windows.name'));

    const win = await runCheck(details);
    await win.result.getByText(t('en', 'proxies:fingerprint.check.matches', { preset: t('en', 'proxies:fingerprint.presets.windows.name') })).waitFor();
    expect(await win.seen('p0f')).toContain(windows.p0f.label);
    expect(await win.seen('ja4t')).toBe(windows.ja4t);
    expect(await win.seen('ttl')).toBe('128');
    expect(await win.seen('options')).toBe(windows.options.join(','));
    await details.scrollIntoViewIfNeeded();
    await visitCheck(page, 'fingerprint-root-windows');
    await page.setViewportSize(phoneViewport);
    await details.scrollIntoViewIfNeeded();
    await visitCheck(page, 'fingerprint-root-windows-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Back to native: the next connection is Linux again.
    await select.selectOption({ label: t('en', 'proxies:fingerprint.presets.native.name') });
    await expect.poll(() => details.getByTestId('port-fingerprint-active').textContent()).toBe(t('en', 'proxies:fingerprint.presets.native.name'));
    const again = await runCheck(details);
    expect(await again.seen('p0f')).toMatch(/Linux/);
    expect(await again.seen('ja4t')).not.toBe(windows.ja4t);
  });
});
