/**
 * A local HTTP server speaking as the notification vendors do (their answer formats, signature
 * checks and rate limits), and as a generic webhook receiver that can be told to fail, hang,
 * redirect or throttle. It keeps everything it received. Its clock is injectable, so a test can
 * play a minute (or DingTalk's ten-minute refusal) without waiting for it.
 *
 * - DingTalk `/dingtalk/robot/send?access_token=T[&timestamp&sign]`: unknown token 300001; with a
 *   secret, a missing or wrong sign (or a timestamp over an hour off) 310000 "sign not match"; a
 *   keyword not in the text 310000 "keywords not in content"; more than 20 in a minute 130101, and
 *   130101 for everything in the 10 minutes after.
 * - WeCom `/wecom/webhook/send?key=K`: unknown key 93000; more than 20 in a minute 45009.
 * - Feishu `/feishu/hook/T`: unknown token 19001; with a secret, a wrong sign 19021; a body over
 *   20 KB 9499; more than 100 in a minute or 5 in a second 11232.
 * - Webhook `/webhook/NAME`: as its behaviour says; with a secret, a wrong X-Hotel-Signature 401.
 * - Any robot can be taken down (`outage`): it answers HTTP 502 until brought back.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type WebhookBehaviour = 'ok' | 'fail' | 'hang' | 'redirect' | 'throttle' | 'refuse' | 'slow';

export interface Received {
  vendor: 'dingtalk' | 'wecom' | 'feishu' | 'webhook';
  /** The robot's token or key, or the webhook's name. */
  target: string;
  headers: http.IncomingHttpHeaders;
  query: URLSearchParams;
  raw: string;
  body: Record<string, unknown>;
  at: number;
  /** What the receiver answered (JSON text, or the status for a webhook). */
  answer: string;
  /** The vendor took it (errcode/code 0, or a webhook's 2xx). */
  accepted: boolean;
}

interface Robot {
  secret?: string;
  keyword?: string;
  /** Accepted sends' times, for the sliding windows. */
  sends: number[];
  blockedUntil: number;
}

interface Hook {
  secret?: string;
  behaviour: WebhookBehaviour;
  slowMs: number;
}

const FEISHU_BODY_MAX = 20 * 1024;

export class VendorReceiver {
  readonly received: Received[] = [];
  private readonly robots = new Map<string, Robot>();
  private readonly hooks = new Map<string, Hook>();
  private readonly hanging = new Set<http.ServerResponse>();
  /** Robots (vendor:token) answering 502. */
  private readonly down = new Set<string>();

  private readonly server = http.createServer((request, response) => this.handle(request, response));
  /** http://127.0.0.1:<port>, once listening. */
  base = '';

  private constructor(private readonly clock: () => number) {}

  static async start(clock: () => number = Date.now): Promise<VendorReceiver> {
    const receiver = new VendorReceiver(clock);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.base = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  dingtalk(token: string, options: { secret?: string; keyword?: string } = {}): string {
    this.robots.set(`dingtalk:${token}`, { ...options, sends: [], blockedUntil: 0 });
    return `${this.base}/dingtalk/robot/send?access_token=${token}`;
  }

  wecom(key: string): string {
    this.robots.set(`wecom:${key}`, { sends: [], blockedUntil: 0 });
    return `${this.base}/wecom/webhook/send?key=${key}`;
  }

  feishu(token: string, options: { secret?: string } = {}): string {
    this.robots.set(`feishu:${token}`, { ...options, sends: [], blockedUntil: 0 });
    return `${this.base}/feishu/hook/${token}`;
  }

  webhook(name: string, options: { secret?: string; behaviour?: WebhookBehaviour; slowMs?: number } = {}): string {
    this.hooks.set(name, { secret: options.secret, behaviour: options.behaviour ?? 'ok', slowMs: options.slowMs ?? 0 });
    return `${this.base}/webhook/${name}`;
  }

  /** A robot's vendor is down (HTTP 502) or back. */
  outage(vendor: 'dingtalk' | 'wecom' | 'feishu', target: string, down: boolean): void {
    if (down) this.down.add(`${vendor}:${target}`);
    else this.down.delete(`${vendor}:${target}`);
  }

  behave(name: string, behaviour: WebhookBehaviour): void {
    this.hooks.get(name)!.behaviour = behaviour;
  }

  of(vendor: Received['vendor'], target: string): Received[] {
    return this.received.filter((r) => r.vendor === vendor && r.target === target);
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', this.base);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // Answered below as the vendor would answer a malformed body.
      }
      const base = { headers: request.headers, query: url.searchParams, raw, body, at: this.clock() };
      const [, vendor, ...rest] = url.pathname.split('/');
      const target = vendor === 'feishu' ? (rest.at(-1) ?? '') : (url.searchParams.get(vendor === 'wecom' ? 'key' : 'access_token') ?? '');
      if (this.down.has(`${vendor}:${target}`)) {
        this.received.push({ ...base, vendor: vendor as Received['vendor'], target, answer: '502', accepted: false });
        response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
        return;
      }
      if (vendor === 'dingtalk')
        return this.json(
          response,
          this.record({ ...base, vendor, target: url.searchParams.get('access_token') ?? '' }, (r) => this.dingtalkAnswer(r)),
        );
      if (vendor === 'wecom')
        return this.json(
          response,
          this.record({ ...base, vendor, target: url.searchParams.get('key') ?? '' }, (r) => this.wecomAnswer(r)),
        );
      if (vendor === 'feishu')
        return this.json(
          response,
          this.record({ ...base, vendor, target: rest.at(-1) ?? '' }, (r) => this.feishuAnswer(r)),
        );
      if (vendor === 'webhook') return this.webhookAnswer({ ...base, vendor, target: rest[0] ?? '', answer: '', accepted: false }, response);
      response.writeHead(404).end();
    });
  }

  private record(received: Omit<Received, 'answer' | 'accepted'>, answer: (r: Omit<Received, 'answer' | 'accepted'>) => Record<string, unknown>): Record<string, unknown> {
    const json = answer(received);
    this.received.push({ ...received, answer: JSON.stringify(json), accepted: json.errcode === 0 || json.code === 0 });
    return json;
  }

  private json(response: http.ServerResponse, json: Record<string, unknown>): void {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
  }

  /** Counts a send against sliding windows; answers whether it exceeds one. */
  private exceeds(robot: Robot, windows: Array<[count: number, ms: number]>, now: number): boolean {
    const over = windows.some(([count, ms]) => robot.sends.filter((at) => at > now - ms).length >= count);
    if (!over) robot.sends.push(now);
    return over;
  }

  private dingtalkAnswer(r: Omit<Received, 'answer' | 'accepted'>): Record<string, unknown> {
    const robot = this.robots.get(`dingtalk:${r.target}`);
    if (!robot) return { errcode: 300001, errmsg: 'token is not exist' };
    if (robot.secret) {
      const timestamp = Number(r.query.get('timestamp'));
      const expected = crypto.createHmac('sha256', robot.secret).update(`${timestamp}\n${robot.secret}`).digest('base64');
      if (!Number.isFinite(timestamp) || Math.abs(r.at - timestamp) > 3_600_000 || r.query.get('sign') !== expected) return { errcode: 310000, errmsg: 'sign not match' };
    }
    const markdown = r.body.markdown as { text?: string } | undefined;
    if (robot.keyword && !markdown?.text?.includes(robot.keyword)) return { errcode: 310000, errmsg: 'keywords not in content' };
    if (robot.blockedUntil > r.at) return { errcode: 130101, errmsg: 'send too fast, exceed 20 times per minute' };
    if (this.exceeds(robot, [[20, 60_000]], r.at)) {
      robot.blockedUntil = r.at + 10 * 60_000;
      return { errcode: 130101, errmsg: 'send too fast, exceed 20 times per minute' };
    }
    return { errcode: 0, errmsg: 'ok' };
  }

  private wecomAnswer(r: Omit<Received, 'answer' | 'accepted'>): Record<string, unknown> {
    const robot = this.robots.get(`wecom:${r.target}`);
    if (!robot) return { errcode: 93000, errmsg: 'invalid webhook url, hint: [1700000000_1_x]' };
    if (this.exceeds(robot, [[20, 60_000]], r.at)) return { errcode: 45009, errmsg: 'api freq out of limit' };
    return { errcode: 0, errmsg: 'ok' };
  }

  private feishuAnswer(r: Omit<Received, 'answer' | 'accepted'>): Record<string, unknown> {
    const robot = this.robots.get(`feishu:${r.target}`);
    if (!robot) return { code: 19001, msg: 'param invalid: incoming webhook access token invalid', data: {} };
    if (Buffer.byteLength(r.raw, 'utf8') > FEISHU_BODY_MAX) return { code: 9499, msg: 'Bad Request', data: {} };
    if (robot.secret) {
      const timestamp = Number(r.body.timestamp);
      const expected = crypto.createHmac('sha256', `${timestamp}\n${robot.secret}`).update('').digest('base64');
      if (!Number.isFinite(timestamp) || Math.abs(r.at / 1000 - timestamp) > 3600 || r.body.sign !== expected)
        return { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time', data: {} };
    }
    if (
      this.exceeds(
        robot,
        [
          [100, 60_000],
          [5, 1_000],
        ],
        r.at,
      )
    )
      return { code: 11232, msg: 'frequency limited psm[lark.oapi.app_platform_runtime]appID[1]', data: {} };
    return { code: 0, msg: 'success', data: {} };
  }

  private webhookAnswer(r: Received, response: http.ServerResponse): void {
    const hook = this.hooks.get(r.target);
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
      this.received.push({ ...r, answer: String(status), accepted: status >= 200 && status < 300 });
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
    };
    if (!hook) return answer(404, '{"error":"no such hook"}');
    if (hook.secret) {
      const timestamp = String(r.headers['x-hotel-timestamp'] ?? '');
      const expected = `sha256=${crypto.createHmac('sha256', hook.secret).update(`${timestamp}.${r.raw}`).digest('hex')}`;
      if (r.headers['x-hotel-signature'] !== expected) return answer(401, '{"error":"bad signature"}');
    }
    switch (hook.behaviour) {
      case 'ok':
        return answer(200, '{"ok":true}');
      case 'slow':
        setTimeout(() => answer(200, '{"ok":true}'), hook.slowMs);
        return;
      case 'fail':
        return answer(500, '{"error":"internal error"}');
      case 'refuse':
        return answer(403, '{"error":"forbidden"}');
      case 'throttle':
        return answer(429, '{"error":"slow down"}', { 'retry-after': '30' });
      case 'redirect':
        return answer(302, '', { location: 'http://169.254.169.254/latest/meta-data/' });
      case 'hang':
        this.received.push({ ...r, answer: 'hang', accepted: false });
        this.hanging.add(response);
        return;
    }
  }
}
