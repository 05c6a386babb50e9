/**
 * Headless Chromium for the dashboard's end-to-end tests: Debian's `chromium` driven by
 * playwright-core (which downloads no browser), a fresh profile per run, and a record of every
 * console error, page error and failed request so a test can require there were none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab of `width` × 900 px. */
  open(width?: number): Promise<Page>;
  /** Console errors, page errors and failed same-origin requests seen so far (then cleared). */
  takeProblems(): string[];
  close(): Promise<void>;
}

/** `allowedOrigins`: other origins the pages may reach (an identity provider). */
export async function launchBrowser(
  baseUrl: string,
  options: { allowedOrigins?: string[] } = {},
): Promise<TestBrowser> {
  const allowed = [baseUrl, ...(options.allowedOrigins ?? [])];
  const profile = mkdtempSync(path.join(os.tmpdir(), 'sluice-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    baseURL: baseUrl,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const problems: string[] = [];
  const watch = (page: Page): void => {
    page.on('console', (message) => {
      if (message.type() === 'error') {
        problems.push(`console error on ${page.url()}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
    page.on('request', (request) => {
      const url = request.url();
      if (
        !allowed.some((origin) => url.startsWith(origin)) &&
        !url.startsWith('data:') &&
        !url.startsWith('blob:') &&
        !url.startsWith('ws://127.0.0.1')
      ) {
        problems.push(`request to another origin: ${url}`);
      }
    });
  };
  context.on('page', watch);
  for (const page of context.pages()) {
    watch(page);
  }
  return {
    context,
    open: async (width = 1280) => {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      return page;
    },
    takeProblems: () => problems.splice(0),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
