/**
 * The suite's `test`: the server's URL as baseURL, an admin API client for setup, a sign-in helper,
 * and a watch on toasts that fails any test during which two toasts were on screen at once
 * (docs/client.md, Toasts: only one toast at a time).
 */
/* eslint-disable no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter's destructuring: {} is "none". */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

import { Api } from './api';
import { settle, trackApiCalls } from './session';
import { sidebar } from './shell';
import { ADMIN_PASSWORD, ADMIN_USER, baseUrl } from './env';

const SCREENSHOT_DIR = path.resolve(__dirname, '../screenshots');

/**
 * Counts antd message notices in the page as they come and go. A notice that is being replaced
 * plays a leave animation for a moment; it is already gone for the user, so it is not counted.
 */
function watchToasts() {
  const w = window as unknown as { __maxToasts: number };
  w.__maxToasts = 0;
  const count = () => {
    const visible = Array.from(document.querySelectorAll('.ant-message-notice')).filter((notice) => !notice.closest('[class*="-leave"]')).length;
    if (visible > w.__maxToasts) w.__maxToasts = visible;
  };
  new MutationObserver(count).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
}

interface Fixtures {
  adminApi: Api;
  signIn: (page: Page, userName?: string, password?: string) => Promise<void>;
  shot: (page: Page, name: string) => Promise<void>;
  toastWatch: void;
}

export const test = base.extend<Fixtures>({
  // Global setup publishes the URL after the config was read, so it is injected here.
  baseURL: async ({}, use) => use(baseUrl()),

  page: async ({ page }, use) => {
    trackApiCalls(page);
    await use(page);
  },

  adminApi: async ({ request }, use) => use(await Api.login(request)),

  signIn: async ({}, use) => {
    await use(async (page, userName = ADMIN_USER, password = ADMIN_PASSWORD) => {
      await page.goto('/sys/verify');
      await page.getByPlaceholder('用户名').fill(userName);
      await page.getByPlaceholder('密码').fill(password);
      await page.getByRole('button', { name: /登\s*录/ }).click();
      await expect(page).not.toHaveURL(/\/sys\/verify/);
      await expect(sidebar(page)).toBeVisible();
      // Let the landing screen's own calls finish, so a test's next step starts from a quiet page.
      await settle(page);
    });
  },

  // Only reached by passing steps, so the folder holds the screens as they looked when correct.
  shot: async ({}, use) => {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await use(async (page, name) => {
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
    });
  },

  toastWatch: [
    async ({ context }, use) => {
      await context.addInitScript(watchToasts);
      await use();
      for (const page of context.pages()) {
        if (page.isClosed()) continue;
        const max = await page.evaluate(() => (window as unknown as { __maxToasts?: number }).__maxToasts ?? 0).catch(() => 0);
        expect(max, `at most one toast on screen at a time (saw ${max}) on ${page.url()}`).toBeLessThanOrEqual(1);
      }
    },
    { auto: true },
  ],
});

export { expect };
