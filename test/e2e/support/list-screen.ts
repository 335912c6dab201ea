/**
 * Driving the shared list-screen block (filters, table, add/edit dialogs) the way a person does,
 * while watching the calls it makes: which page size it asked for, that a save was answered, and
 * that the list was read again afterwards.
 */
import { expect, type Locator, type Page, type Request, type Response } from '@playwright/test';

import type { Envelope } from '../../../src/contract';
import { ANSWER_TIMEOUT_MS } from './env';
import { openMenu } from './shell';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isCall = (path: string | string[]) => (url: string) => (Array.isArray(path) ? path : [path]).some((one) => new URL(url).pathname === `/api${one}`);

/** antd puts a space between two Chinese characters in some buttons ("保 存"). */
export const buttonName = (label: string): RegExp => new RegExp(`^\\s*${label.split('').map(escape).join('\\s*')}\\s*$`);

/**
 * The toast on screen, matched on its whole text. A toast being replaced by one with the same
 * text stays in the DOM for its leave animation; it is not the one on screen.
 */
export function toast(page: Page, text: string | RegExp): Locator {
  const pattern = typeof text === 'string' ? new RegExp(`^\\s*${escape(text)}\\s*$`) : text;
  return page.locator('.ant-message-notice:not([class*="-leave"])').filter({ hasText: pattern });
}

export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  try {
    await expect(toast(page, text)).toBeVisible();
  } catch (error) {
    const shown = await page.locator('.ant-message-notice').allInnerTexts();
    throw new Error(`toast ${String(text)} not shown; on screen: ${JSON.stringify(shown)}\n${String(error)}`, { cause: error });
  }
}

/** A modal or a drawer (both are dialogs to assistive technology) by its title. */
export const dialog = (page: Page, title: string | RegExp): Locator => page.getByRole('dialog', { name: title });

/** A table row holding the text (scoped to a container, e.g. a dialog). */
export const row = (scope: Page | Locator, text: string): Locator => scope.getByRole('row').filter({ hasText: text });

/**
 * A form item's control by its label. Found through the form item rather than getByLabel: the
 * dialogs' label `for` ids repeat the filter form's ids (see the report), so a label can point at
 * the wrong input.
 */
export function control(scope: Locator, label: string): Locator {
  return scope
    .locator('.ant-form-item')
    .filter({ has: scope.page().locator(`label[title="${label}"]`) })
    .locator('input:not([type=checkbox]):not([type=radio]), textarea, [role=switch]')
    .first();
}

/** Picks an option of an antd Select, found by its form label inside `scope`. */
export async function choose(page: Page, scope: Locator, label: string, option: string | RegExp): Promise<void> {
  await scope
    .locator('.ant-form-item')
    .filter({ has: page.locator(`label[title="${label}"]`) })
    .locator('.ant-select')
    .click();
  // The dropdown renders only the options in view (a virtual list): step down it with the keyboard,
  // as a person would scroll, until the one asked for shows.
  const wanted = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first();
  for (let step = 0; step < 200 && !(await wanted.isVisible()); step += 1) await page.keyboard.press('ArrowDown');
  await wanted.click();
}

/**
 * Runs an action and answers the request body and the envelope of the call it causes (the first
 * of `path` when several endpoints may serve it).
 */
export async function callDuring<T = unknown>(page: Page, path: string | string[], action: () => Promise<unknown>) {
  const matches = isCall(path);
  // When no answer comes, the error says whether the browser sent the call at all (and how it
  // failed): a click that did nothing and a server that did not answer look alike otherwise.
  const started = Date.now();
  const seen: string[] = [];
  const note = (what: string) => (request: Request) => {
    if (matches(request.url())) seen.push(`${what} after ${Date.now() - started} ms${request.failure() ? ` (${request.failure()!.errorText})` : ''}`);
  };
  const [onSent, onFailed] = [note('sent'), note('failed')];
  page.on('request', onSent);
  page.on('requestfailed', onFailed);
  let response: Response;
  try {
    [response] = await Promise.all([page.waitForResponse((r) => matches(r.url()), { timeout: ANSWER_TIMEOUT_MS }), action()]);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nthe call to ${String(path)} meanwhile: ${seen.join(', ') || 'never sent'}`, { cause: error });
  } finally {
    page.off('request', onSent);
    page.off('requestfailed', onFailed);
  }
  const body = (response.request().postDataJSON() ?? {}) as Record<string, unknown>;
  // Note: an answer without a Content-Type charset reaches Playwright already decoded as
  // windows-1252 (Chinese msg garbled); tests that need such a msg ask the API for it directly.
  const envelope = (await response.json()) as Envelope<T>;
  return { body, envelope, contentType: response.headers()['content-type'] };
}

/** Collects the envelopes of every answer to `path` from now on (for calls a test cannot time). */
export function recordAnswers(page: Page, path: string): Array<Envelope<unknown>> {
  const answers: Array<Envelope<unknown>> = [];
  page.on('response', (response) => {
    if (isCall(path)(response.url())) void response.json().then((envelope: Envelope<unknown>) => answers.push(envelope));
  });
  return answers;
}

export interface ScreenConfig {
  parent: string;
  child: string;
  inquire: string;
}

/**
 * Opens a screen from the sidebar and answers the body of its first list call. `expectRows`
 * proves the list rendered what the server answered.
 */
export async function openScreen(page: Page, screen: ScreenConfig): Promise<Record<string, unknown>> {
  const { body, envelope } = await callDuring(page, screen.inquire, () => openMenu(page, screen.parent, screen.child));
  expect(envelope.code, `${screen.inquire} answered ${envelope.msg}`).toBe(200);
  await expect(page.getByRole('main').getByRole('table').first()).toBeVisible();
  return body;
}

/**
 * Clicks the dialog's 保存 once the dialog has finished opening, and answers the save call's body
 * and envelope; waits for the dialog to close and for the list to be read again (`reload`, the
 * screen's inquire path). Filling a dialog does not wait for its zoom-in, and a press during it can
 * be lost (see finishedOpening): the likely cause of users.spec's 编辑用户 保存 "never sent", once in
 * a CI run on a loaded machine.
 */
export async function saveDialog(page: Page, box: Locator, save: string, reload: string) {
  await finishedOpening(box);
  const reloaded = page.waitForResponse((r) => isCall(reload)(r.url()), { timeout: ANSWER_TIMEOUT_MS });
  const result = await callDuring(page, save, () => box.getByRole('button', { name: buttonName('保存') }).click());
  expect(result.envelope.code, `${save} answered ${result.envelope.msg}`).toBe(200);
  await expect(box).toBeHidden();
  await reloaded;
  return result;
}

/** Fills text inputs of a dialog by their labels. */
export async function fill(box: Locator, values: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(values)) await control(box, label).fill(value);
}

/** Presses a row's action (编辑, 授权, 资源, ...): in the row, or under the row's 更多 (opened on the way). */
export async function rowAction(scope: Page | Locator, text: string, action: string): Promise<void> {
  const line = row(scope, text);
  // The row first: counted while the list was still loading, an action in the row was not there
  // yet, and was looked for under 更多 (roles.spec: 授权 "never sent").
  await expect(line).toBeVisible();
  const inline = line.getByRole('button', { name: buttonName(action) });
  if ((await inline.count()) > 0) {
    await inline.click();
    return;
  }
  const more = line.getByRole('button', { name: /更\s*多/ });
  if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
  const panelId = await more.getAttribute('aria-controls');
  const page = 'page' in scope ? scope.page() : scope;
  await page
    .locator(`[id="${panelId}"]`)
    .getByRole('button', { name: buttonName(action) })
    .click();
}

/**
 * Waits until `opening` (a modal or a Popconfirm bubble) has finished its zoom-in, as a person
 * does. antd lays it out at full size, then drops it to nothing and zooms it in: a press aimed at
 * the full-size button in that moment is released on another element and the click is lost, the
 * call never sent (roles.spec's 解绑 确定, locations.spec's 确认告警 确定).
 */
const finishedOpening = (opening: Locator) => expect(opening).not.toHaveClass(/zoom(-big)?-(appear|enter)/);

/** Presses 确定 in the open confirmation bubble (Popconfirm) once it has finished opening. */
export async function confirmPopup(page: Page): Promise<void> {
  const popup = page.locator('.ant-popconfirm').filter({ visible: true });
  await finishedOpening(popup);
  await popup.getByRole('button', { name: buttonName('确定') }).click();
}

/** A dialog by its title once it has finished opening. */
export async function openedDialog(page: Page, title: string | RegExp): Promise<Locator> {
  const box = dialog(page, title);
  await expect(box).toBeVisible();
  await finishedOpening(box);
  return box;
}

/** Picks a location in a 位置 tree select inside `scope` by typing its name. */
export async function pickLocation(page: Page, scope: Locator, name: string) {
  await scope
    .locator('.ant-form-item')
    .filter({ has: page.locator('label[title="位置"]') })
    .locator('.ant-select')
    .click();
  await page.keyboard.type(name);
  await page.locator(`.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper[title="${name}"]`).click();
}
