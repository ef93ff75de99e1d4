// Chromium for one spec file (Debian's /usr/bin/chromium driven by playwright-core), a fresh context per test,
// and the checks every page gets: no console.error or uncaught error, no serious accessibility violation.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { repoRoot } from './server.js';

export const screenshotsDir = join(repoRoot, 'test-results', 'screenshots');
export const phoneViewport = { width: 390, height: 844 };
const desktopViewport = { width: 1280, height: 800 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

export interface BrowserFixture {
  readonly browser: Browser;
  /** This test's own context (cookies, storage) and its first page. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and page errors seen so far in this test (the test fails on any at its end). */
  readonly errors: string[];
  /** Another page in this test's context, watched the same way. */
  newPage(): Promise<Page>;
  /**
   * A second, independent context (its own cookies: the operator beside the customer; or its own browser language),
   * watched the same way and closed after the test.
   */
  secondContext(options?: { locale?: string }): Promise<{ context: BrowserContext; page: Page }>;
}

/** One Chromium per spec file; each test gets a fresh context and page, closed after it. */
export function useBrowser(): BrowserFixture {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let others: BrowserContext[] = [];
  let errors: string[] = [];

  const watch = (p: Page) => {
    p.on('console', (message) => {
      const problem = consoleProblem(message);
      if (problem) errors.push(problem);
    });
    p.on('pageerror', (error) => errors.push(`uncaught error on ${p.url()}: ${error.stack ?? error.message}`));
    return p;
  };

  beforeAll(async () => { browser = await launchChromium(); });
  afterAll(async () => { await browser?.close(); });
  const newContext = async (locale = 'en-US') => {
    const created = await browser!.newContext({ viewport: desktopViewport, locale });
    created.setDefaultTimeout(15_000);
    created.setDefaultNavigationTimeout(30_000);
    return created;
  };
  beforeEach(async () => {
    errors = [];
    context = await newContext();
    page = watch(await context.newPage());
  });
  afterEach(async (ctx) => {
    const failed = (ctx.task.result?.errors?.length ?? 0) > 0;
    const failedShot = `FAILED-${slug(ctx.task.name)}`;
    if (failed && page && !page.isClosed()) await shot(page, failedShot).catch(() => {});
    // A test that passes now leaves no failure screenshot of an earlier run behind.
    if (!failed && !errors.length) rmSync(join(screenshotsDir, `${failedShot}.png`), { force: true });
    for (const other of others) await other.close();
    others = [];
    await context?.close();
    context = undefined;
    page = undefined;
    if (errors.length) {
      throw new Error(`the page logged ${errors.length} error(s):\n${errors.map((e) => `  - ${e}`).join('\n')}`);
    }
  });

  const need = <T>(value: T | undefined, what: string): T => {
    if (!value) throw new Error(`${what} exists only inside a test`);
    return value;
  };
  return {
    get browser() { return need(browser, 'the browser'); },
    get context() { return need(context, 'the context'); },
    get page() { return need(page, 'the page'); },
    get errors() { return errors; },
    async newPage() { return watch(await need(context, 'the context').newPage()); },
    async secondContext(options = {}) {
      need(context, 'the context');
      const other = await newContext(options.locale);
      others.push(other);
      return { context: other, page: watch(await other.newPage()) };
    },
  };
}

/**
 * What in a console message counts as a failure. console.error and Chromium's own errors do — except the
 * network line Chromium prints for an API answer with a 4xx status ("Failed to load resource: … 401"): the
 * app expects those (signed out, wrong password, unknown login) and shows them to the person instead.
 */
function consoleProblem(message: ConsoleMessage): string | undefined {
  if (message.type() !== 'error') return undefined;
  const text = message.text();
  const where = message.location().url;
  if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text) && /\/api\/v1\//.test(where)) {
    return undefined;
  }
  // Chromium drops the loads in flight when an address on the machine changes. Here the agent, as root on the same
  // machine, makes a preset's network namespace and veth (and the kernel gives the veth its IPv6 addresses a moment
  // later), so a page opened then logs net::ERR_NETWORK_CHANGED (CI, 2026-12-07: fingerprint.e2e.ts). A customer's
  // browser never shares the agent's machine. A load it really lost fails the test's own steps, which wait for what
  // the page shows.
  if (/^Failed to load resource: net::ERR_NETWORK_CHANGED$/.test(text)) return undefined;
  return `console.error: ${text}${where ? ` (${where})` : ''}`;
}

/** Saves a full-page screenshot as test-results/screenshots/<name>.png and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotsDir, { recursive: true });
  const path = join(screenshotsDir, `${slug(name)}.png`);
  // From the top: a full-page capture of a scrolled page draws the fixed header and sidebar mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string; html: string }>;
}

/**
 * Runs axe-core on the page as it is now and fails on every 'serious' or 'critical' violation, listing each
 * with the elements it found. `name` says which page this is in the message.
 */
export async function checkA11y(page: Page, name: string): Promise<void> {
  // evaluate() runs through the DevTools protocol, so the app's Content-Security-Policy stays in force.
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, options: unknown): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  }) as AxeViolation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (!serious.length) return;
  const lines = serious.map((v) => [
    `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`,
    ...v.nodes.slice(0, 5).map((n) => `      at ${n.target.join(' ')}  ${n.html.slice(0, 160)}` +
      (n.failureSummary ? `\n         ${n.failureSummary.replace(/\n/g, '\n         ')}` : '')),
    ...(v.nodes.length > 5 ? [`      …and ${v.nodes.length - 5} more`] : []),
  ].join('\n'));
  throw new Error(`accessibility: ${serious.length} serious/critical violation(s) on ${name} (${page.url()}):\n${lines.join('\n')}`);
}

/** Screenshot and accessibility check together: what every spec does on every page it visits. */
export async function visitCheck(page: Page, name: string): Promise<void> {
  await shot(page, name);
  await checkA11y(page, name);
}

function slug(name: string): string {
  return name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120);
}
