/**
 * Issue 2, the HTTP edge: security headers, body limit, validation messages, the SPA served on the
 * same origin (precompressed, cached by hash, history fallback), seeding once, and logs that never
 * hold a token or a password.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createTestDatabase, describeOnEachDatabase, startTestApp, ADMIN_PASSWORD } from './support/harness';
import { seedIfEmpty } from '../../src/server/services/builtins/seed';
import { Code } from '../../src/contract/constants';
import { captureLog } from './support/log-capture';

function makeClientDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-client-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="zh-CN"><body><div id="root"></div></body></html>');
  const js = 'console.log("酒店后台");'.repeat(50);
  fs.writeFileSync(path.join(dir, 'main.0123abcd.js'), js);
  fs.writeFileSync(path.join(dir, 'main.0123abcd.js.br'), zlib.brotliCompressSync(js));
  fs.writeFileSync(path.join(dir, 'main.0123abcd.js.gz'), zlib.gzipSync(js));
  return dir;
}

describeOnEachDatabase(
  'HTTP edge',
  (ctx) => {
    it('sends a CSP without inline scripts, nosniff and no framing', async () => {
      const response = await ctx().app.inject({ method: 'GET', url: '/sys/verify' });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('sends the same security headers on API answers', async () => {
      const response = await ctx().app.inject({ method: 'GET', url: '/api/healthz' });
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cache-control': 'no-store',
      });
      expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    });

    it('serves index.html uncached for any app path (history fallback)', async () => {
      const response = await ctx().app.inject({ method: 'GET', url: '/hotel/device?x=1' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    });

    it('answers /favicon.ico with an empty icon kept a day, not a 404', async () => {
      const response = await ctx().app.inject({ method: 'GET', url: '/favicon.ico' });
      expect(response.statusCode).toBe(204);
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
    });

    it('serves hashed assets precompressed and cached for good', async () => {
      const brotli = await ctx().app.inject({ method: 'GET', url: '/main.0123abcd.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(brotli.statusCode).toBe(200);
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const gzip = await ctx().app.inject({ method: 'GET', url: '/main.0123abcd.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
    });

    it('answers a missing asset with 404 rather than the app shell', async () => {
      expect((await ctx().app.inject({ method: 'GET', url: '/main.deadbeef.js' })).statusCode).toBe(404);
    });

    it('refuses an oversized body with HTTP 413 and writes nothing', async () => {
      const response = await ctx().app.inject({
        method: 'POST',
        url: '/api/sys/user/verify',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ userName: 'admin', password: 'x'.repeat(300 * 1024) }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ msg: '请求内容过大' });
    });

    it('explains bad input in Chinese: broken JSON, unknown fields, wrong types', async () => {
      const broken = await ctx().app.inject({ method: 'POST', url: '/api/sys/user/verify', headers: { 'content-type': 'application/json' }, payload: '{"userName":' });
      expect(broken.json()).toEqual({ code: Code.invalid, msg: '请求内容不是合法的 JSON', data: null });
      // Without a charset, clients other than browsers misread the Chinese msg.
      expect(broken.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(await ctx().call('/sys/user/verify', { userName: 'admin', password: 'x', extra: 1 })).toMatchObject({ code: Code.invalid, msg: '不支持的字段：extra' });
      expect(await ctx().call('/sys/user/verify', { userName: { name: 'admin' }, password: 'x' })).toMatchObject({ code: Code.invalid, msg: '用户名类型不正确，应为文本' });
    });
  },
  { clientDir: makeClientDir() },
);

describe('first start', () => {
  it('seeds once: a second start reuses the data and seeds nothing twice', async () => {
    const target = await createTestDatabase('sqlite');
    const first = await startTestApp(target);
    const count = async (table: 'sysMenu' | 'sysResource' | 'sysDict' | 'sysRole' | 'sysUser') =>
      Number(
        (
          await first.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = {
      menus: await count('sysMenu'),
      resources: await count('sysResource'),
      dicts: await count('sysDict'),
      roles: await count('sysRole'),
      users: await count('sysUser'),
    };
    // Three areas (系统管理, 酒店管理, 系统监控) and their nineteen screens.
    expect(before).toMatchObject({ menus: 22, roles: 1, users: 1 });
    const again = await seedIfEmpty(first.database.db, () => first.app.passwords.hash('another-Passw0rd'));
    expect(again.seeded).toBe(false);
    expect({
      menus: await count('sysMenu'),
      resources: await count('sysResource'),
      dicts: await count('sysDict'),
      roles: await count('sysRole'),
      users: await count('sysUser'),
    }).toEqual(before);
    await first.login('admin', ADMIN_PASSWORD);
    await first.close();
    await target.drop();
  });
});

describe('logs', () => {
  it('never contain the token or the password', async () => {
    const { lines, stream } = captureLog();
    const target = await createTestDatabase('sqlite');
    const app = await startTestApp(target, {}, { logger: { level: 'trace', stream } });
    const token = await app.login();
    await app.call('GET /sys/menu/authority', null, token);
    await app.call('/sys/user/verify', { userName: 'admin', password: 'Wrong-Secret-999' });
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(3);
    expect(log).not.toContain(token);
    expect(log).not.toContain(ADMIN_PASSWORD);
    expect(log).not.toContain('Wrong-Secret-999');
    await app.close();
    await target.drop();
  });

  it('logs a request answered after SLOW_REQUEST_MS at warn, with its route and time, and a quick one not at all', async () => {
    const { lines, stream } = captureLog();
    const target = await createTestDatabase('sqlite');
    const app = await startTestApp(
      target,
      { slowRequestMs: 200 },
      {
        logger: { level: 'warn', stream },
        extend: (instance) => instance.get('/api/test/slow', { config: { access: 'public' } }, () => new Promise((resolve) => setTimeout(() => resolve({ ok: 1 }), 250))),
      },
    );
    try {
      await app.app.inject({ method: 'GET', url: '/api/healthz' });
      expect(lines.join('')).not.toContain('slow request');
      await app.app.inject({ method: 'GET', url: '/api/test/slow' });
      const slow = lines.map((line) => JSON.parse(line) as { level: number; msg: string; route?: string; ms?: number }).filter((line) => line.msg === 'slow request');
      expect(slow).toEqual([expect.objectContaining({ level: 40, route: '/api/test/slow', method: 'GET' })]);
      expect(slow[0].ms).toBeGreaterThanOrEqual(200);
    } finally {
      await app.close();
      await target.drop();
    }
  });

  it('logs an event loop held up for EVENT_LOOP_STALL_MS at warn, with how long, and an idle loop not at all', async () => {
    const { lines, stream } = captureLog();
    const target = await createTestDatabase('sqlite');
    const holdUp = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until); // a synchronous step, as a long SQLite statement is
    };
    const app = await startTestApp(
      target,
      { stallWarnMs: 200 },
      {
        logger: { level: 'warn', stream },
        extend: (instance) => instance.get('/api/test/hold', { config: { access: 'public' } }, () => (holdUp(400), { ok: 1 })),
      },
    );
    const blocked = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string; ms?: number }).filter((line) => line.msg === 'event loop blocked');
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(blocked()).toEqual([]);
      await app.app.inject({ method: 'GET', url: '/api/test/hold' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(blocked()).toEqual([expect.objectContaining({ level: 40 })]);
      expect(blocked()[0].ms).toBeGreaterThanOrEqual(200);
    } finally {
      await app.close();
      await target.drop();
    }
  });
});
