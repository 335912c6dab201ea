/**
 * Feishu custom bot (飞书自定义机器人). An interactive card (a header with the title, the body as
 * markdown, a button to the console); with signature verification (签名校验) the body carries
 * `timestamp` (epoch seconds) and `sign` = base64(HMAC-SHA256 keyed with `timestamp + "\n" +
 * secret` over an empty message). The request body may be at most 20 KB; at most 100 messages a
 * minute and 5 a second. The answer is `{ code, msg }`: 0 sent; 11232 frequency limited (HTTP 429 /
 * 99991400 too); 19021 a signature mismatch or a timestamp over an hour off; 19024 keywords not
 * found; 19022 an address not allowed; 9499 a malformed body. Sources cited in docs/api/monitor.md.
 */
import crypto from 'node:crypto';
import { DEFAULT_PAUSE_MS, jsonWithin, postAndRead, readCoded, type CodedAnswers } from './http-delivery';
import type { Outgoing, Vendor } from './vendor';

const LIMITS = [
  { count: 100, windowMs: 60_000 },
  { count: 5, windowMs: 1_000 },
];
/** 20 KB, with room for the vendor's own rounding. */
const BODY_MAX_BYTES = 20_000;

const ANSWERS: CodedAnswers = {
  name: '飞书',
  // Older answers carry StatusCode / StatusMessage as well (kept for compatibility).
  fields: { code: ['code', 'StatusCode'], message: ['msg', 'StatusMessage'] },
  throttled: { codes: [11232, 99991400], limit: '每分钟最多 100 条、每秒 5 条', pauseMs: DEFAULT_PAUSE_MS },
  busy: [],
  hints: {
    19021: '（签名不符或时间戳相差超过 1 小时）',
    19022: '（IP 不在白名单中）',
    19024: '（消息不含自定义关键词）',
    9499: '（请求格式不正确）',
  },
};

/** `sign` as Feishu computes it: the key is the timestamp and the secret, the message empty. */
const feishuSign = (secret: string, timestampSeconds: number): string => crypto.createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');

const HEADER_COLOURS: Record<string, string> = { raise: 'red', escalation: 'orange', clear: 'green' };

function card(message: Outgoing, body: string) {
  return {
    msg_type: 'interactive',
    card: {
      config: { wide_screen_mode: true },
      header: { title: { tag: 'plain_text', content: message.title }, template: HEADER_COLOURS[message.kind] ?? 'blue' },
      elements: [
        { tag: 'markdown', content: body },
        ...(message.link ? [{ tag: 'action', actions: [{ tag: 'button', text: { tag: 'plain_text', content: '查看详情' }, url: message.link, type: 'primary' }] }] : []),
      ],
    },
  };
}

export const feishu: Vendor = {
  limits: () => LIMITS,
  deliver: (message, settings, { outbound, now }) => {
    const seconds = Math.floor(now / 1000);
    const signature = settings.secret ? { timestamp: String(seconds), sign: feishuSign(settings.secret, seconds) } : {};
    const body = jsonWithin(BODY_MAX_BYTES, message.body, (text) => ({ ...signature, ...card(message, text) }));
    return postAndRead(outbound, { url: settings.url!, body }, (answer) => readCoded(answer, ANSWERS));
  },
};
