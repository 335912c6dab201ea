/**
 * DingTalk custom group robot (钉钉自定义机器人). A markdown message (`msgtype: markdown`, with a
 * title and a text); with a signing secret (加签) the URL carries `timestamp` (epoch ms) and `sign`
 * = URL-encoded base64(HMAC-SHA256(key secret, text `timestamp + "\n" + secret`)). The answer is
 * `{ errcode, errmsg }`: 0 sent; 130101 "send too fast" — more than 20 a minute, after which the
 * robot refuses for 10 minutes; 310000 a signature, keyword or IP whitelist mismatch; -1 busy.
 * Sources cited in docs/api/monitor.md.
 */
import crypto from 'node:crypto';
import { fitBytes, linkLine, postAndRead, readCoded, type CodedAnswers } from './http-delivery';
import type { Vendor } from './vendor';

const LIMIT = { count: 20, windowMs: 60_000 };
const TEXT_MAX_BYTES = 18_000;

const ANSWERS: CodedAnswers = {
  name: '钉钉',
  fields: { code: ['errcode'], message: ['errmsg'] },
  throttled: { codes: [130101], limit: '每分钟最多 20 条，超过后 10 分钟内拒收', pauseMs: 10 * 60_000 },
  busy: [-1],
  hints: { 310000: '（加签密钥、自定义关键词或 IP 白名单不符）' },
};

/** `sign` as DingTalk computes it (before URL encoding). */
const dingtalkSign = (secret: string, timestamp: number): string => crypto.createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');

function signedUrl(url: string, secret: string | undefined, now: number): string {
  if (!secret) return url;
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}timestamp=${now}&sign=${encodeURIComponent(dingtalkSign(secret, now))}`;
}

export const dingtalk: Vendor = {
  limits: () => [LIMIT],
  deliver: (message, settings, { outbound, now }) => {
    const text = fitBytes(`#### ${message.title}\n\n${message.body}${linkLine(message.link)}`, TEXT_MAX_BYTES);
    const body = JSON.stringify({ msgtype: 'markdown', markdown: { title: message.title, text } });
    return postAndRead(outbound, { url: signedUrl(settings.url!, settings.secret, now), body }, (answer) => readCoded(answer, ANSWERS));
  },
};
