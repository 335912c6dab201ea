/**
 * Issue 28: the one outbound client. Targets are checked before anything connects (link-local,
 * metadata, "this host", multicast and broadcast never; loopback and private only with the
 * setting), a host name is judged by what it resolves to and the connection goes to exactly that
 * address, redirects are answers (never followed), and the timeouts and the answer cap hold.
 * Private-range addresses are only classified here: nothing but 127.0.0.1 is ever connected to.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { classifyAddress, refusalOf } from '../../src/server/lib/outbound/address';
import { OutboundClient, OutboundError, type OutboundOptions, type ResolvedAddress } from '../../src/server/lib/outbound/client';

const options = (overrides: Partial<OutboundOptions> = {}): OutboundOptions => ({
  allowPrivateTargets: false,
  connectTimeoutMs: 2000,
  totalTimeoutMs: 2000,
  maxAnswerBytes: 1024,
  ...overrides,
});

/** What a call failed with (an OutboundError is what the client throws). */
async function failureOf(call: Promise<unknown>): Promise<OutboundError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OutboundError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('address classes', () => {
  it.each([
    ['169.254.169.254', 'forbidden'],
    ['169.254.1.1', 'forbidden'],
    ['100.100.100.200', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['239.255.255.250', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['::', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['fe80::1%eth0', 'forbidden'],
    ['ff02::1', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['::ffff:a9fe:a9fe', 'forbidden'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'],
    ['2002:a9fe:a9fe::1', 'forbidden'],
    ['[::ffff:0.0.0.0]', 'forbidden'],
    ['127.0.0.1', 'private'],
    ['127.8.8.8', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'private'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2400:3200::1', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)?.class).toBe(expected);
  });

  it('refuses forbidden addresses whatever the setting, private ones only without it', () => {
    expect(refusalOf('169.254.169.254', true)).toMatch(/链路本地地址/);
    expect(refusalOf('100.100.100.200', true)).toMatch(/云服务器元数据地址/);
    expect(refusalOf('0.0.0.0', true)).toMatch(/未指定地址/);
    expect(refusalOf('224.0.0.1', true)).toMatch(/组播地址/);
    expect(refusalOf('10.1.2.3', false)).toMatch(/内网地址.*NOTIFY_ALLOW_PRIVATE_TARGETS=1/);
    expect(refusalOf('10.1.2.3', true)).toBeNull();
    expect(refusalOf('127.0.0.1', false)).toMatch(/本机回环地址/);
    expect(refusalOf('8.8.8.8', false)).toBeNull();
  });
});

describe('the outbound client', () => {
  let server: http.Server;
  let port: number;
  const seen: string[] = [];
  let answer: (request: http.IncomingMessage, response: http.ServerResponse) => void = (_q, r) => r.end('{"ok":true}');
  const hanging = new Set<http.ServerResponse>();

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      seen.push(`${request.method} ${request.url} host=${request.headers.host}`);
      request.resume();
      request.on('end', () => answer(request, response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    answer = (_q, r) => r.end('{"ok":true}');
  });

  it.each([
    ['link-local (metadata)', 'http://169.254.169.254/latest/meta-data/'],
    ['Alibaba metadata', 'http://100.100.100.200/latest/meta-data/'],
    ['this host', 'http://0.0.0.0:1/'],
    ['multicast', 'http://224.0.0.1/'],
    ['broadcast', 'http://255.255.255.255/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/'],
    ['a metadata host name', 'http://metadata.google.internal/computeMetadata/v1/'],
  ])('refuses %s even with private targets allowed', async (_what, url) => {
    const client = new OutboundClient(options({ allowPrivateTargets: true }));
    const error = await failureOf(client.post({ url, body: '{}' }));
    expect(error.kind).toBe('target');
    expect(error.message).toMatch(/^不允许连接目标/);
  });

  it('refuses loopback without the setting and reaches it with it', async () => {
    const closed = new OutboundClient(options());
    const refused = await failureOf(closed.post({ url: `http://127.0.0.1:${port}/hook`, body: '{}' }));
    expect(refused.kind).toBe('target');
    expect(refused.message).toContain('NOTIFY_ALLOW_PRIVATE_TARGETS=1');
    expect(seen).toEqual([]);

    const open = new OutboundClient(options({ allowPrivateTargets: true }));
    const answered = await open.post({ url: `http://127.0.0.1:${port}/hook`, body: '{"a":1}' });
    expect(answered).toMatchObject({ status: 200, body: '{"ok":true}', truncated: false });
    expect(seen).toEqual([`POST /hook host=127.0.0.1:${port}`]);
    open.close();
  });

  it('lets private ranges through only with the setting (checked, not connected to)', async () => {
    await expect(new OutboundClient(options()).resolveTarget('10.20.30.40')).rejects.toMatchObject({ kind: 'target' });
    await expect(new OutboundClient(options({ allowPrivateTargets: true })).resolveTarget('10.20.30.40')).resolves.toEqual([{ address: '10.20.30.40', family: 4 }]);
    await expect(new OutboundClient(options({ allowPrivateTargets: true })).resolveTarget('[fd12::1]')).resolves.toEqual([{ address: 'fd12::1', family: 6 }]);
  });

  it('refuses a host name that resolves to a refused address', async () => {
    const localhost = await failureOf(new OutboundClient(options()).post({ url: `http://localhost:${port}/`, body: '{}' }));
    expect(localhost).toMatchObject({ kind: 'target' });
    expect(localhost.message).toContain('主机 localhost 解析到该地址');

    const rebinding = new OutboundClient(options({ allowPrivateTargets: true, resolve: () => Promise.resolve([{ address: '169.254.169.254', family: 4 }]) }));
    expect(await failureOf(rebinding.post({ url: 'http://hooks.example.test/', body: '{}' }))).toMatchObject({ kind: 'target' });
    // One refused address among several answers is enough to refuse the name.
    const mixed = new OutboundClient(
      options({
        resolve: () =>
          Promise.resolve([
            { address: '8.8.8.8', family: 4 },
            { address: '10.0.0.1', family: 4 },
          ]),
      }),
    );
    expect(await failureOf(mixed.post({ url: 'http://hooks.example.test/', body: '{}' }))).toMatchObject({ kind: 'target' });
    expect(seen).toEqual([]);
  });

  it('connects to the address it checked: a resolver asked once, whatever it would answer next', async () => {
    const answers: ResolvedAddress[][] = [[{ address: '127.0.0.1', family: 4 }], [{ address: '169.254.169.254', family: 4 }]];
    const asked: string[] = [];
    const client = new OutboundClient(
      options({
        allowPrivateTargets: true,
        resolve: (host) => {
          asked.push(host);
          return Promise.resolve(answers.shift() ?? []);
        },
      }),
    );
    const answered = await client.post({ url: `http://receiver.example.test:${port}/rebind`, body: '{}' });
    expect(answered.status).toBe(200);
    expect(asked).toEqual(['receiver.example.test']);
    // The Host header (and TLS's server name) keep the name; the connection went to 127.0.0.1.
    expect(seen).toEqual([`POST /rebind host=receiver.example.test:${port}`]);
    client.close();
  });

  it('answers a redirect as it is and does not follow it', async () => {
    answer = (_q, r) => r.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    const client = new OutboundClient(options({ allowPrivateTargets: true }));
    const answered = await client.post({ url: `http://127.0.0.1:${port}/redirect`, body: '{}' });
    expect(answered.status).toBe(302);
    expect(answered.headers.location).toBe('http://169.254.169.254/latest/meta-data/');
    expect(seen).toHaveLength(1);
    client.close();
  });

  it('gives up on a receiver that does not answer within the total timeout', async () => {
    answer = (_q, r) => hanging.add(r);
    const client = new OutboundClient(options({ allowPrivateTargets: true, totalTimeoutMs: 300 }));
    const error = await failureOf(client.post({ url: `http://127.0.0.1:${port}/hang`, body: '{}' }));
    expect(error).toMatchObject({ kind: 'timeout', message: '请求超时（300 毫秒内未完成）' });
    client.close();
  });

  it('reads an answer up to its cap and marks it cut', async () => {
    answer = (_q, r) => r.end('x'.repeat(100_000));
    const client = new OutboundClient(options({ allowPrivateTargets: true, maxAnswerBytes: 1024 }));
    const answered = await client.post({ url: `http://127.0.0.1:${port}/big`, body: '{}' });
    expect(answered.truncated).toBe(true);
    expect(answered.body).toHaveLength(1024);
    client.close();
  });

  it('takes http and https only', async () => {
    const client = new OutboundClient(options({ allowPrivateTargets: true }));
    expect(await failureOf(client.post({ url: `ftp://127.0.0.1:${port}/`, body: '{}' }))).toMatchObject({ kind: 'target', message: '不支持的协议 ftp:：只能是 http 或 https' });
    expect(await failureOf(client.post({ url: 'file:///etc/passwd', body: '{}' }))).toMatchObject({ kind: 'target' });
  });

  it('reports a refused connection as a network failure (tried again later)', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const error = await failureOf(new OutboundClient(options({ allowPrivateTargets: true })).post({ url: `http://127.0.0.1:${closedPort}/`, body: '{}' }));
    expect(error).toMatchObject({ kind: 'network' });
    expect(error.message).toContain('ECONNREFUSED');
  });
});
