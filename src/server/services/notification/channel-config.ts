/**
 * A channel's configuration: which keys each type takes (and needs), how a request's keys are
 * checked and merged with what is stored (credentials are write-only: a blank one keeps the stored
 * value while the type stays the same), and how it is shown (credentials as masks). Stored as JSON
 * in notify_channel.config; the contract's ChannelConfigInput names the keys and their titles.
 */
import type { Static } from '@sinclair/typebox';
import { ChannelConfigInput, DEFAULT_MAX_ATTEMPTS, type ChannelConfigView, type ChannelType } from '../../../contract/monitor/channel';
import { invalid } from '../../lib/errors';
import { isHttpUrl } from '../../lib/http-url';
import { maskSecret } from '../../lib/mask-secret';

export type ChannelSettings = Static<typeof ChannelConfigInput>;
type Key = keyof ChannelSettings;

/** Keys that are credentials: answered masked, kept when an edit leaves them blank. */
const WRITE_ONLY: readonly Key[] = ['url', 'secret', 'password'];

interface TypeRules {
  label: string;
  required: readonly Key[];
  optional: readonly Key[];
}

/** What each type of channel is configured with. */
export const CHANNEL_RULES: Record<ChannelType, TypeRules> = {
  dingtalk: { label: '钉钉机器人', required: ['url'], optional: ['secret', 'maxAttempts'] },
  wecom: { label: '企业微信机器人', required: ['url'], optional: ['maxAttempts'] },
  feishu: { label: '飞书机器人', required: ['url'], optional: ['secret', 'maxAttempts'] },
  webhook: { label: 'Webhook', required: ['url'], optional: ['secret', 'ratePerMinute', 'maxAttempts'] },
  email: { label: '电子邮件', required: ['host', 'port', 'from', 'to'], optional: ['security', 'user', 'password', 'ratePerMinute', 'maxAttempts'] },
};

const titleOf = (key: Key): string => (ChannelConfigInput.properties[key] as { title?: string }).title ?? key;

/** A value the form left empty counts as not given. */
const given = (value: unknown): boolean => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

const MAIL_ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>".]+$/;
const HOST_NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/;

function checkValue(key: Key, settings: ChannelSettings): void {
  const title = titleOf(key);
  if (key === 'url' && !isHttpUrl(settings.url!)) throw invalid(`${title}格式不正确：应为 http:// 或 https:// 开头的完整地址`);
  if (key === 'host' && !HOST_NAME.test(settings.host!)) throw invalid(`${title}格式不正确：应为主机名或 IP 地址`);
  if (key === 'from' && !MAIL_ADDRESS.test(settings.from!)) throw invalid(`${title}格式不正确：应为邮箱地址`);
  if (key === 'to') {
    const wrong = settings.to!.find((address) => !MAIL_ADDRESS.test(address));
    if (wrong !== undefined) throw invalid(`${title}格式不正确：${wrong} 不是邮箱地址`);
  }
}

/**
 * The settings to store for a channel of `type`, from what a creation or an edit sent and, for an
 * edit of a channel still of that type, what is stored. Refuses (400, naming the key) a key the
 * type does not take, a missing required key and a malformed value.
 */
export function settingsToStore(type: ChannelType, input: ChannelSettings, stored?: ChannelSettings): ChannelSettings {
  const rules = CHANNEL_RULES[type];
  const allowed = new Set<Key>([...rules.required, ...rules.optional]);
  const foreign = (Object.keys(input) as Key[]).find((key) => !allowed.has(key) && given(input[key]));
  if (foreign) throw invalid(`${rules.label}渠道不使用配置项：${titleOf(foreign)}`);

  const settings: ChannelSettings = {};
  for (const key of allowed) {
    const value = given(input[key]) ? input[key] : WRITE_ONLY.includes(key) ? stored?.[key] : undefined;
    if (value !== undefined) Object.assign(settings, { [key]: value });
  }
  for (const key of rules.required) {
    if (!given(settings[key])) throw invalid(`${titleOf(key)}不能为空`);
  }
  for (const key of Object.keys(settings) as Key[]) checkValue(key, settings);
  return settings;
}

/** The settings of a stored channel (its JSON); a damaged value reads as empty settings. */
export function parseSettings(text: string): ChannelSettings {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export const maxAttemptsOf = (settings: ChannelSettings): number => settings.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;

/** A path segment this long is taken for a token (Feishu's hook: a 36-character UUID). */
const TOKEN_SEGMENT_MIN_LENGTH = 16;

/**
 * A webhook address with its credentials masked: robots carry their token in the query
 * (access_token, key) or as the last path segment (Feishu's hook), so every query value, and a last
 * path segment long enough to be a token, are masked.
 */
export function maskUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return maskSecret(text);
  }
  const segments = url.pathname.split('/');
  const last = segments.length - 1;
  if (segments[last].length >= TOKEN_SEGMENT_MIN_LENGTH) segments[last] = maskSecret(decodeURIComponent(segments[last]));
  const query = [...url.searchParams].map(([name, value]) => `${name}=${maskSecret(value)}`).join('&');
  return `${url.protocol}//${url.host}${segments.join('/')}${query ? `?${query}` : ''}`;
}

/** The settings as answers show them: the type's keys, credentials masked. */
export function settingsView(type: ChannelType, settings: ChannelSettings): Static<typeof ChannelConfigView> {
  const rules = CHANNEL_RULES[type];
  const takes = (key: Key) => rules.required.includes(key) || rules.optional.includes(key);
  return {
    ...(takes('url') ? { urlMasked: maskUrl(settings.url ?? '') } : {}),
    ...(takes('secret') ? { secretMasked: maskSecret(settings.secret ?? '') } : {}),
    ...(type === 'email'
      ? {
          host: settings.host ?? '',
          port: settings.port ?? 25,
          security: settings.security ?? 'starttls',
          user: settings.user ?? '',
          passwordMasked: maskSecret(settings.password ?? ''),
          from: settings.from ?? '',
          to: settings.to ?? [],
        }
      : {}),
    ...(takes('ratePerMinute') ? { ratePerMinute: settings.ratePerMinute ?? 0 } : {}),
    maxAttempts: maxAttemptsOf(settings),
  };
}

/** Whether an edit left the settings as they were (otherwise the channel's health is unknown again). */
export const sameSettings = (a: ChannelSettings, b: ChannelSettings): boolean => JSON.stringify(a) === JSON.stringify(b);
