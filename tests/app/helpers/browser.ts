/** Debian's chromium driven by playwright-core (never a downloaded browser). */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';

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
