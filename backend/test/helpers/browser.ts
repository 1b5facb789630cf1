import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium, Locator, Page } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core (no browser download): its headless shell when it
 * is installed (package chromium-headless-shell: the same Blink and V8 build without the desktop
 * browser around them, what Playwright itself runs headless; the browser tests take about 30% less
 * CPU, docs/performance.md), else the whole browser. CHROMIUM_PATH chooses another.
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ||
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file)) ||
  '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.resolve(__dirname, '..', '..', '..', 'test-output', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. Install it with: apt-get install -y chromium-headless-shell (or chromium; or set CHROMIUM_PATH).`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A person's click: the mouse moves onto the element's middle (scrolled into view), presses and releases. */
export async function mouseClick(page: Page, target: Locator): Promise<void> {
  // The element may be replaced while it is looked at (the app taking over markup the server
  // rendered): a person clicks where it is drawn now, so the look is taken again, for a while.
  const until = Date.now() + 5000;
  for (;;) {
    let box: { x: number; y: number; width: number; height: number } | null = null;
    try {
      await target.waitFor();
      await target.scrollIntoViewIfNeeded();
      box = await target.boundingBox();
    } catch (error) {
      if (!/not attached|detached/i.test(String(error)) || Date.now() > until) throw error;
    }
    if (box) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
      await page.mouse.down();
      await page.mouse.up();
      return;
    }
    if (Date.now() > until) throw new Error('the element has no box');
    await page.waitForTimeout(100);
  }
}
