/**
 * WeCom group robot (企业微信群机器人). A markdown message (`msgtype: markdown`, `content` at most
 * 4096 bytes); the robot's key is in the URL, there is no signature. At most 20 messages a minute;
 * the answer is `{ errcode, errmsg }`: 0 sent; 45009 "api freq out of limit"; 93000 an invalid
 * webhook URL (the key); -1 busy. Sources cited in docs/api/monitor.md.
 */
import { fitBytes, jsonOf, linkLine, postAndRead, unreadable, delivered, DEFAULT_PAUSE_MS } from './http-delivery';
import { keptAnswer, type Vendor } from './vendor';

const LIMIT = { count: 20, windowMs: 60_000 };
const CONTENT_MAX_BYTES = 4096;
export const WECOM_THROTTLED = 45009;

export const wecom: Vendor = {
  limits: () => [LIMIT],
  deliver: (message, settings, { outbound }) => {
    const content = fitBytes(`**${message.title}**\n${message.body}${linkLine(message.link)}`, CONTENT_MAX_BYTES);
    const body = JSON.stringify({ msgtype: 'markdown', markdown: { content } });
    return postAndRead(outbound, { url: settings.url!, body }, (answer) => {
      const json = jsonOf(answer);
      if (!json || typeof json.errcode !== 'number') return unreadable(answer, '企业微信');
      const kept = keptAnswer(answer.body);
      const errmsg = typeof json.errmsg === 'string' ? json.errmsg : '';
      if (json.errcode === 0) return delivered(answer.status, answer.body);
      if (json.errcode === WECOM_THROTTLED)
        return { verdict: 'throttled', status: answer.status, answer: kept, reason: `企业微信限流：${errmsg}（每分钟最多 20 条）`, pauseMs: DEFAULT_PAUSE_MS };
      if (json.errcode === -1) return { verdict: 'retry', status: answer.status, answer: kept, reason: `企业微信系统繁忙：${errmsg}` };
      const hint = json.errcode === 93000 ? '（机器人 Webhook 地址无效）' : '';
      return { verdict: 'refused', status: answer.status, answer: kept, reason: `企业微信拒绝（errcode ${json.errcode}）：${errmsg}${hint}` };
    });
  },
};
