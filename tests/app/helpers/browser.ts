/** Debian's chromium driven by playwright-core (never a downloaded browser). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode, type BrowserModeOptions } from '../../../electron/server/browser-mode.js';
import { ensureRendererBuilt } from '../../../scripts/renderer-build.js';

/** Where the browser tests put their screenshots (test-output/, git-ignored). */
export const SHOTS = join(import.meta.dirname, '../../../test-output/screens');

export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Debian chromium is not installed: apt-get install -y chromium (see .ci/run)');
  }
}

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...extraArgs],
  });
}

declare const document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

/** The snapshot version the page shows (it rises with every change the server pushes). */
export async function pageVersion(page: Page): Promise<number> {
  return Number(await page.locator('main').getAttribute('data-version'));
}

/** Does one thing on screen and waits for the snapshot it causes; a refusal fails with its words. */
export async function act(page: Page, what: string, action: () => Promise<void>): Promise<void> {
  const alert = page.locator('[data-testid=message][role=alert]');
  if (await alert.count()) await page.locator('[data-testid=message] .close').click();
  const before = await pageVersion(page);
  await action();
  await Promise.race([
    page.waitForFunction((v) => Number(document.querySelector('main')?.getAttribute('data-version')) > v, before),
    alert.waitFor().then(async () => {
      throw new Error(`${what}: ${await alert.textContent()}`);
    }),
  ]);
}

/** Browser mode on a fresh SQLite file with Debian's chromium showing it on one page. */
export interface OpenApp {
  readonly app: BrowserMode;
  readonly browser: Browser;
  readonly page: Page;
  /** The fresh folder the SQLite file lies in (the test may put its own files beside it). */
  readonly dir: string;
  readonly dataFile: string;
  /** Closes the browser, then browser mode. */
  close(): Promise<void>;
}

/**
 * The set-up every browser-mode test starts from: the renderer built, browser mode on a new SQLite
 * file in a fresh temporary folder named after `name`, chromium with one page of `viewport`, the
 * page's default timeout. The page is not opened on the app yet (tests time that themselves).
 */
export async function openApp(
  name: string,
  o: Omit<BrowserModeOptions, 'dataFile' | 'rendererDir'> & { readonly viewport?: { width: number; height: number }; readonly timeout?: number } = {},
): Promise<OpenApp> {
  const { viewport = { width: 1400, height: 900 }, timeout = 10_000, ...mode } = o;
  mkdirSync(SHOTS, { recursive: true });
  const rendererDir = await ensureRendererBuilt();
  const dir = mkdtempSync(join(tmpdir(), `companion-${name}-`));
  const dataFile = join(dir, 'c.sqlite');
  const app = await startBrowserMode({ ...mode, dataFile, rendererDir });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(timeout);
  return {
    app, browser, page, dir, dataFile,
    async close() {
      await browser.close();
      await app.close();
    },
  };
}
