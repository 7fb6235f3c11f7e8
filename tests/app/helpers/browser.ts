/** Debian's chromium driven by playwright-core (never a downloaded browser). */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Debian chromium is not installed: apt-get install -y chromium (see .ci/run)');
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}
