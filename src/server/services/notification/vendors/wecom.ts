/**
 * WeCom group robot (企业微信群机器人). A markdown message (`msgtype: markdown`, `content` at most
 * 4096 bytes); the robot's key is in the URL, there is no signature. At most 20 messages a minute;
 * the answer is `{ errcode, errmsg }`: 0 sent; 45009 "api freq out of limit"; 93000 an invalid
 * webhook URL (the key); -1 busy. Sources cited in docs/api/monitor.md.
 */
import { DEFAULT_PAUSE_MS, fitBytes, linkLine, postAndRead, readCoded, type CodedAnswers } from './http-delivery';
import type { Vendor } from './vendor';

const LIMIT = { count: 20, windowMs: 60_000 };
const CONTENT_MAX_BYTES = 4096;

const ANSWERS: CodedAnswers = {
  name: '企业微信',
  fields: { code: ['errcode'], message: ['errmsg'] },
  throttled: { codes: [45009], limit: '每分钟最多 20 条', pauseMs: DEFAULT_PAUSE_MS },
  busy: [-1],
  hints: { 93000: '（机器人 Webhook 地址无效）' },
};

export const wecom: Vendor = {
  limits: () => [LIMIT],
  deliver: (message, settings, { outbound }) => {
    const content = fitBytes(`**${message.title}**\n${message.body}${linkLine(message.link)}`, CONTENT_MAX_BYTES);
    const body = JSON.stringify({ msgtype: 'markdown', markdown: { content } });
    return postAndRead(outbound, { url: settings.url!, body }, (answer) => readCoded(answer, ANSWERS));
  },
};
