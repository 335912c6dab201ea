/** Reading the stored session and watching the SPA's API traffic. */
import type { Page, Request } from '@playwright/test';

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
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === `/api${path}`),
    action(),
  ]);
  const body = response.request().postDataJSON() as Record<string, unknown> | null;
  const envelope = (await response.json()) as { code: number; msg: string; data: T };
  return { body, envelope };
}
