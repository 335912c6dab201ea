/** Reading the stored session and watching the SPA's API traffic. */
import type { Page, Request } from '@playwright/test';
import { ANSWER_TIMEOUT_MS } from './env';

export interface StoredSession {
  token: string | null;
  userName: string | null;
  nickName: string | null;
}

export const storedSession = (page: Page): Promise<StoredSession> =>
  page.evaluate(() => ({
    token: localStorage.getItem('token'),
    userName: localStorage.getItem('userName'),
    nickName: localStorage.getItem('nickName'),
  }));

/** Collects every /api request the page makes from now on. */
export function recordApiRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) seen.push(request);
  });
  return seen;
}

export const apiPath = (request: Request): string => new URL(request.url()).pathname.replace(/^\/api/, '');

/**
 * Waits for the SPA's next call to an endpoint and answers its request body and response envelope,
 * e.g. to check the page size a list asked for. Start waiting before the action that triggers it.
 */
export async function nextCall<T = unknown>(page: Page, path: string, action: () => Promise<unknown>) {
  const [response] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === `/api${path}`, { timeout: ANSWER_TIMEOUT_MS }), action()]);
  const body = response.request().postDataJSON() as Record<string, unknown> | null;
  const envelope = (await response.json()) as { code: number; msg: string; data: T };
  return { body, envelope };
}

const inFlight = new WeakMap<Page, Set<Request>>();

/** The live event stream: open as long as the shell is, so never "in flight" in the sense of a call. */
export const isLiveStream = (request: Request): boolean => new URL(request.url()).pathname === '/api/events';

/** Counts the page's /api calls in flight, the live stream aside; installed on every test page by the fixtures. */
export function trackApiCalls(page: Page): void {
  const pending = new Set<Request>();
  inFlight.set(page, pending);
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/') && !isLiveStream(r)) pending.add(r);
  });
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
}

/**
 * Waits until no /api call has been in flight for `quietMs`. Playwright's 'networkidle' does not
 * help in a single-page app: it is a load state, reached once and never lost on in-app navigation.
 */
export async function settle(page: Page, quietMs = 300, timeoutMs = 10_000): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) throw new Error('settle() needs a page from the suite fixtures');
  const deadline = Date.now() + timeoutMs;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (pending.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`API calls still in flight after ${timeoutMs} ms: ${[...pending].map((r) => r.url()).join(', ')}`);
}
