/**
 * What every HTTP vendor shares: the POST through the outbound client, the reading of an HTTP status
 * before the vendor's own answer is looked at, and the few text helpers their formats need.
 */
import { OutboundError, type OutboundAnswer, type OutboundClient, type OutboundRequest } from '../../../lib/outbound/client';
import { keptAnswer, type Delivery } from './vendor';

/** A vendor that answered its rate-limit error without saying for how long: wait a minute. */
export const DEFAULT_PAUSE_MS = 60_000;

export const delivered = (status: number | null, answer: string): Delivery => ({ verdict: 'sent', status, answer: keptAnswer(answer), reason: '' });

/** The call failed before an answer: a refused target is for good, a timeout or a network error for now. */
export function failedCall(error: unknown): Delivery {
  if (error instanceof OutboundError) {
    const verdict = error.kind === 'target' ? 'refused' : error.kind === 'answer' && (error.status ?? 0) >= 500 ? 'refused' : 'retry';
    return { verdict, status: error.status, answer: '', reason: error.message };
  }
  return { verdict: 'retry', status: null, answer: '', reason: error instanceof Error ? error.message : String(error) };
}

/** Seconds in a Retry-After header, as milliseconds (a date form reads as the default). */
function retryAfterMs(answer: OutboundAnswer): number {
  const seconds = Number(answer.headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_PAUSE_MS;
}

/**
 * The verdict an HTTP status alone gives, or null for a 2xx (the vendor's body then says):
 * 5xx and 408 retry, 429 throttles, a redirect is refused (never followed), other 4xx refuse.
 */
export function statusVerdict(answer: OutboundAnswer): Delivery | null {
  const { status } = answer;
  const kept = keptAnswer(answer.body);
  if (status >= 200 && status < 300) return null;
  if (status === 429) return { verdict: 'throttled', status, answer: kept, reason: `对方限流（HTTP 429）`, pauseMs: retryAfterMs(answer) };
  if (status >= 500 || status === 408) return { verdict: 'retry', status, answer: kept, reason: `对方暂时不可用（HTTP ${status}）` };
  if (status >= 300 && status < 400) {
    const location = typeof answer.headers.location === 'string' ? `，指向 ${answer.headers.location}` : '';
    return { verdict: 'refused', status, answer: kept, reason: `对方返回重定向（HTTP ${status}${location}），不跟随重定向` };
  }
  return { verdict: 'refused', status, answer: kept, reason: `对方拒绝（HTTP ${status}）` };
}

/** POSTs and reads: the status first, then (2xx) the vendor's own reading of its body. */
export async function postAndRead(client: OutboundClient, request: OutboundRequest, read: (answer: OutboundAnswer) => Delivery): Promise<Delivery> {
  let answer: OutboundAnswer;
  try {
    answer = await client.post(request);
  } catch (error) {
    return failedCall(error);
  }
  return statusVerdict(answer) ?? read(answer);
}

/** The JSON object an answer holds, or undefined. */
export function jsonOf(answer: OutboundAnswer): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(answer.body) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A 2xx whose body is not the vendor's JSON: a proxy's page, most likely passing. */
const unreadable = (answer: OutboundAnswer, vendor: string): Delivery => ({
  verdict: 'retry',
  status: answer.status,
  answer: keptAnswer(answer.body),
  reason: `${vendor}的应答无法识别${answer.truncated ? '（应答过长，已截断）' : ''}`,
});

/** How a robot vendor's JSON answer reads: a result code (0 is success) and a message. */
export interface CodedAnswers {
  /** The vendor's name in reasons (钉钉, 企业微信, 飞书). */
  name: string;
  fields: { code: string[]; message: string[] };
  /** Its rate-limit codes, what the limit is, and how long it then refuses. */
  throttled: { codes: number[]; limit: string; pauseMs: number };
  /** Codes meaning "busy, try again" (-1). */
  busy: number[];
  /** A hint added to a refusal's reason, by code. */
  hints: Record<number, string>;
}

/** Reads a robot's answer: sent, throttled, busy (retry) or refused for good with the vendor's message. */
export function readCoded(answer: OutboundAnswer, vendor: CodedAnswers): Delivery {
  const json = jsonOf(answer);
  const pick = (names: string[]) => names.map((name) => json?.[name]).find((value) => value !== undefined);
  const code = pick(vendor.fields.code);
  if (typeof code !== 'number') return unreadable(answer, vendor.name);
  const message = pick(vendor.fields.message);
  const text = typeof message === 'string' ? message : '';
  const base = { status: answer.status, answer: keptAnswer(answer.body) };
  if (code === 0) return delivered(answer.status, answer.body);
  if (vendor.throttled.codes.includes(code))
    return { ...base, verdict: 'throttled', reason: `${vendor.name}限流：${text}（${vendor.throttled.limit}）`, pauseMs: vendor.throttled.pauseMs };
  if (vendor.busy.includes(code)) return { ...base, verdict: 'retry', reason: `${vendor.name}系统繁忙：${text}` };
  return { ...base, verdict: 'refused', reason: `${vendor.name}拒绝（${vendor.fields.code[0]} ${code}）：${text}${vendor.hints[code] ?? ''}` };
}

/** `text` cut to at most `maxBytes` of UTF-8, marked with an ellipsis when cut. */
export function fitBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let cut = Buffer.from(text, 'utf8')
    .subarray(0, Math.max(0, maxBytes - 3))
    .toString('utf8');
  // A character cut in half decodes as U+FFFD: drop it.
  cut = cut.replace(/\uFFFD$/, '');
  return `${cut}…`;
}

/** The JSON text of `build(body)`, the body cut until the whole fits `maxBytes` (a vendor's body limit). */
export function jsonWithin(maxBytes: number, body: string, build: (body: string) => unknown): string {
  let text = JSON.stringify(build(body));
  let room = Buffer.byteLength(body, 'utf8');
  for (let tries = 0; Buffer.byteLength(text, 'utf8') > maxBytes && tries < 5; tries += 1) {
    room = Math.max(0, room - (Buffer.byteLength(text, 'utf8') - maxBytes) - 64);
    text = JSON.stringify(build(fitBytes(body, room)));
  }
  return text;
}

/** The markdown line that links to the console, or nothing without a console address. */
export const linkLine = (link: string): string => (link ? `\n\n[查看详情](${link})` : '');
