import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const base = process.env.BASE ?? 'http://127.0.0.1:3114';
const pw = /Password: (.*)/.exec(readFileSync('/tmp/h14/admin.txt', 'utf8'))![1]!;
const pages = (process.env.PAGES ?? ',customers,inventory,catalog,coupons,payments,notifications,settings,audit,admins').split(',');
const axe = readFileSync('/work/main/node_modules/axe-core/axe.min.js', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await ctx.newPage();
page.on('console', (m) => { if (m.type() === 'error') console.log('CONSOLE', m.text(), m.location().url); });
page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
await page.goto(`${base}/en/sign-in?redirect=%2Fen%2Fadmin`);
await page.getByLabel('Email', { exact: true }).fill('ops@h14.local').catch(async () => { await page.locator('input[type=email]').fill('ops@h14.local'); });
await page.locator('input[type=password]').fill(pw);
await page.locator('form button[type=submit]').click();
await page.waitForURL(/\/en\/admin/);
for (const width of (process.env.WIDTHS ?? '1280,390').split(',').map(Number)) {
  await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
  for (const p of pages) {
    await page.goto(`${base}/${process.env.LNG ?? 'en'}/admin/${p}`);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `/tmp/h14/shots/${p || 'overview'}-${width}.png`, fullPage: true });
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe);
    const v = await page.evaluate(async () => (await (window as any).axe.run(document)).violations.filter((x: any) => x.impact === 'serious' || x.impact === 'critical').map((x: any) => `${x.id}: ${x.nodes.slice(0, 3).map((n: any) => n.html.slice(0, 120)).join(' | ')}`));
    console.log(p || 'overview', width, v.length ? v : 'axe ok');
  }
}
await browser.close();
