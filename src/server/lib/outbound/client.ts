/**
 * The one way the server calls out (webhooks, chat robots, SMTP): every target is resolved here and
 * checked (address.ts) before anything connects, and the connection goes to the very address that
 * was checked, so a DNS answer that changes between check and connect (rebinding) cannot slip a
 * refused address past. http: and https: only; a connect timeout and a total timeout; the answer
 * read up to a size cap; redirects are answers, never followed.
 */
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { bareHost, isMetadataHost, refusalOf } from './address';

export interface OutboundOptions {
  /** Loopback and private ranges allowed (NOTIFY_ALLOW_PRIVATE_TARGETS=1). */
  allowPrivateTargets: boolean;
  /** From the start of a connection to its being open (TLS included). */
  connectTimeoutMs: number;
  /** From the start of a call to the last byte of its answer. */
  totalTimeoutMs: number;
  /** An answer is read up to this many bytes; the rest is cut off (truncated). */
  maxAnswerBytes: number;
  /** Resolves a host name; the system resolver unless a caller (a test) brings its own. */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * target: the address may not be called (permanent); timeout and network: the call may work later;
 * answer: the far end answered with a refusal of its own (an SMTP reply code).
 */
export type OutboundErrorKind = 'target' | 'timeout' | 'network' | 'answer';

/** A failed outbound call, with a Chinese message fit for a message record and a channel's health. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
    /** The far end's status, when it answered (an SMTP reply code). */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The answer's text (UTF-8), at most maxAnswerBytes of it. */
  body: string;
  truncated: boolean;
}

export interface OutboundRequest {
  url: string;
  body: string;
  headers?: Record<string, string>;
}

const systemResolve = async (host: string): Promise<ResolvedAddress[]> =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

const describe = (error: unknown) => (error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error));

export class OutboundClient {
  /** Kept-alive connections to receivers already checked; a new connection is checked again. */
  private readonly agents = { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) };
  private readonly resolve: (host: string) => Promise<ResolvedAddress[]>;

  constructor(readonly options: OutboundOptions) {
    this.resolve = options.resolve ?? systemResolve;
  }

  /**
   * The addresses a host may be reached at, every one of them checked: a name with any refused
   * address is refused whole (a rebinding server may answer several). Throws OutboundError 'target'.
   */
  async resolveTarget(host: string): Promise<ResolvedAddress[]> {
    const name = bareHost(host);
    if (isMetadataHost(name)) throw new OutboundError('target', `不允许连接目标主机 ${name}：云服务器元数据服务`);
    const literal = net.isIP(name);
    let addresses: ResolvedAddress[];
    if (literal !== 0) {
      addresses = [{ address: name, family: literal === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await this.resolve(name);
      } catch (error) {
        throw new OutboundError('network', `无法解析目标主机 ${name}：${describe(error)}`);
      }
      if (addresses.length === 0) throw new OutboundError('network', `无法解析目标主机 ${name}`);
    }
    for (const { address } of addresses) {
      const refusal = refusalOf(address, this.options.allowPrivateTargets);
      if (refusal) throw new OutboundError('target', literal !== 0 ? refusal : `${refusal}（主机 ${name} 解析到该地址）`);
    }
    return addresses;
  }

  /** POSTs `body`; answers whatever status the far end answered (3xx included: not followed). */
  async post(request: OutboundRequest): Promise<OutboundAnswer> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new OutboundError('target', '目标地址格式不正确');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('target', `不支持的协议 ${url.protocol}：只能是 http 或 https`);
    // Checked before the request exists: an IP literal never reaches the lookup below.
    const checked = await this.resolveTarget(url.hostname);
    // Node connects where this lookup says: to the addresses just checked, not to a second answer.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, checked);
      else callback(null, checked[0].address, checked[0].family);
    };
    return this.send(url, request, lookup);
  }

  private send(url: URL, request: OutboundRequest, lookup: LookupFunction): Promise<OutboundAnswer> {
    const { connectTimeoutMs, totalTimeoutMs, maxAnswerBytes } = this.options;
    const secure = url.protocol === 'https:';
    const payload = Buffer.from(request.body, 'utf8');
    return new Promise<OutboundAnswer>((resolve, reject) => {
      let settled = false;
      const timers: NodeJS.Timeout[] = [];
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        timers.forEach(clearTimeout);
        outcome();
      };
      const fail = (error: OutboundError) => {
        finish(() => reject(error));
        outgoing.destroy();
      };
      const outgoing = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: secure ? this.agents.https : this.agents.http,
          lookup,
          headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(payload.length), ...request.headers },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          const done = () =>
            finish(() =>
              resolve({
                status: incoming.statusCode ?? 0,
                headers: incoming.headers,
                body: Buffer.concat(chunks)
                  .toString('utf8')
                  .replace(/\uFFFD$/, ''),
                truncated,
              }),
            );
          incoming.on('data', (chunk: Buffer) => {
            const room = maxAnswerBytes - size;
            if (chunk.length > room) {
              chunks.push(chunk.subarray(0, room));
              size = maxAnswerBytes;
              truncated = true;
              done();
              incoming.destroy();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          incoming.on('end', done);
          incoming.on('error', (error) => fail(new OutboundError('network', `读取应答失败：${describe(error)}`)));
        },
      );
      timers.push(setTimeout(() => fail(new OutboundError('timeout', `请求超时（${totalTimeoutMs} 毫秒内未完成）`)), totalTimeoutMs));
      outgoing.on('socket', (socket) => {
        // A kept-alive connection is already open; a new one has connectTimeoutMs to open.
        if (!socket.connecting) return;
        const timer = setTimeout(() => fail(new OutboundError('timeout', `连接超时（${connectTimeoutMs} 毫秒内未连上）`)), connectTimeoutMs);
        timers.push(timer);
        socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
      });
      outgoing.on('error', (error) => fail(error instanceof OutboundError ? error : new OutboundError('network', `连接失败：${describe(error)}`)));
      outgoing.end(payload);
    });
  }

  /** Closes the kept-alive connections (at shutdown). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
