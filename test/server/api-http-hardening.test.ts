/**
 * Issue 8, point 10 (HTTP): no API answer is cached (the sign-in answer carries the token), HSTS
 * when the request came over TLS (directly or, with TRUST_PROXY, through the proxy), and a request
 * whose body trickles in is cut off.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, describeOnEachDatabase, startTestApp, ADMIN_PASSWORD } from './support/harness';

describeOnEachDatabase(
  'HTTP hardening',
  (ctx) => {
    it('marks every /api answer no-store: success, refusal, invalid input, unknown path, oversized body', async () => {
      const answers = await Promise.all([
        ctx().app.inject({ method: 'POST', url: '/api/sys/user/verify', payload: { userName: 'admin', password: ADMIN_PASSWORD } }),
        ctx().app.inject({ method: 'GET', url: '/api/sys/menu/authority' }),
        ctx().app.inject({ method: 'POST', url: '/api/sys/user/verify', payload: { userName: '' } }),
        ctx().app.inject({ method: 'POST', url: '/api/nothing/here', payload: {} }),
        ctx().app.inject({
          method: 'POST',
          url: '/api/sys/user/verify',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ userName: 'x'.repeat(300 * 1024) }),
        }),
      ]);
      expect(answers.map((a) => a.json().code)).toEqual([200, 401, 400, 404, 413]);
      for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
    });

    it('sends HSTS only for a request that came over TLS through a trusted proxy', async () => {
      const overTls = await ctx().app.inject({ method: 'GET', url: '/api/sys/menu/authority', headers: { 'x-forwarded-proto': 'https' } });
      expect(overTls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const plain = await ctx().app.inject({ method: 'GET', url: '/api/sys/menu/authority' });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    });
  },
  { trustProxy: true },
);

describe('HSTS without TRUST_PROXY', () => {
  it('ignores X-Forwarded-Proto from a client when no proxy is trusted', async () => {
    const target = await createTestDatabase('sqlite');
    const app = await startTestApp(target, { trustProxy: false });
    try {
      const spoofed = await app.app.inject({ method: 'GET', url: '/api/sys/menu/authority', headers: { 'x-forwarded-proto': 'https' } });
      expect(spoofed.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await app.close();
      await target.drop();
    }
  });
});

describe('a body that trickles in', () => {
  it('is cut off once the request timeout has passed, long before it would have finished', async () => {
    const target = await createTestDatabase('sqlite');
    const app = await startTestApp(target, { requestTimeoutMs: 1000 });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.app.server.address() as AddressInfo;
    const bodyLength = 600;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    try {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(`POST /api/sys/user/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${bodyLength}\r\n\r\n`);
          // One byte every 50 ms: the whole body would take 30 s.
          timer = setInterval(() => {
            if (sent < bodyLength && !socket.destroyed) {
              socket.write(' ');
              sent += 1;
            }
          }, 50);
        });
        let received = '';
        socket.on('data', (chunk) => (received += String(chunk)));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
      });
      expect(sent).toBeLessThan(bodyLength);
      expect(reply).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(timer);
      await app.close();
      await target.drop();
    }
  }, 20_000);
});
