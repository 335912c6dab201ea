/**
 * Notification channels (monitor/channel): where alarm messages go — a DingTalk, WeCom or Feishu
 * group robot, a generic webhook, or e-mail over SMTP. Credentials are write-only: the robot's
 * webhook address (it carries the robot's token), its signing secret and the SMTP password are
 * answered only as masks, and an edit that leaves one blank keeps the stored value.
 */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned, IdBody } from '../common';
import { acts, post, reads } from '../endpoint';

export const CHANNEL_TYPES = ['dingtalk', 'wecom', 'feishu', 'webhook', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
/** unknown: nothing sent yet; ok: the last answer was a success; unhealthy: the vendor refused (healthReason says why). */
export const CHANNEL_HEALTHS = ['unknown', 'ok', 'unhealthy'] as const;
export type ChannelHealth = (typeof CHANNEL_HEALTHS)[number];
export const SMTP_SECURITIES = ['none', 'starttls', 'tls'] as const;
/** A channel tries a message at most this many times (the last failure makes it a dead letter). */
export const MAX_ATTEMPTS_LIMIT = 10;
export const DEFAULT_MAX_ATTEMPTS = 5;

const literals = <T extends string>(values: readonly T[], title: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { title },
  );

const ChannelTypeField = literals(CHANNEL_TYPES, '渠道类型');

/**
 * What a channel is configured with. Which keys a type takes (and requires) is checked by the server
 * (docs/api/monitor.md): robots and the webhook `url` (+ `secret`), e-mail the SMTP keys; the
 * webhook and e-mail may set their own `ratePerMinute`; every type `maxAttempts`.
 */
export const ChannelConfigInput = Type.Object(
  {
    url: Type.Optional(field.secret('Webhook 地址', 0, 1000)),
    secret: Type.Optional(field.secret('签名密钥', 0, 200)),
    host: Type.Optional(field.note('SMTP 服务器', 200)),
    port: Type.Optional(field.int('SMTP 端口', 1, 65535)),
    security: Type.Optional(literals(SMTP_SECURITIES, '加密方式')),
    user: Type.Optional(field.note('SMTP 用户名', 200)),
    password: Type.Optional(field.secret('SMTP 密码', 0, 200)),
    from: Type.Optional(field.note('发件人', 200)),
    to: Type.Optional(Type.Array(field.note('收件人', 200), { title: '收件人', maxItems: 50 })),
    /** 0: no limit of our own (webhook and e-mail only; the robots' limits are their vendors'). */
    ratePerMinute: Type.Optional(field.int('每分钟发送上限', 0, 6000)),
    maxAttempts: Type.Optional(field.int('最多尝试次数', 1, MAX_ATTEMPTS_LIMIT)),
  },
  { additionalProperties: false, title: '渠道配置' },
);

/** The configuration as answers show it: credentials only as masks. */
export const ChannelConfigView = Type.Object({
  urlMasked: Type.Optional(Type.String()),
  secretMasked: Type.Optional(Type.String()),
  host: Type.Optional(Type.String()),
  port: Type.Optional(Type.Integer()),
  security: Type.Optional(Type.String()),
  user: Type.Optional(Type.String()),
  passwordMasked: Type.Optional(Type.String()),
  from: Type.Optional(Type.String()),
  to: Type.Optional(Type.Array(Type.String())),
  ratePerMinute: Type.Optional(Type.Integer()),
  maxAttempts: Type.Integer(),
});

export const ChannelRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  config: ChannelConfigView,
  state: Type.Integer(),
  remark: Type.String(),
  health: Type.String(),
  healthReason: Type.String(),
  healthAt: field.nullable(Type.Integer()),
  /** Dead letters of the channel (messages in state failed), which 通知记录 can resend. */
  failedCount: Type.Integer(),
  version: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
});

export const CHANNEL_SORT_KEYS = ['name', 'type', 'state', 'health', 'updatedAt'] as const;

export const ChannelInquire = pagedRequest(
  {
    name: field.note('渠道名称', 64),
    type: ChannelTypeField,
    state: field.flag('状态'),
    health: literals(CHANNEL_HEALTHS, '健康状态'),
  },
  CHANNEL_SORT_KEYS,
);

const channelFields = {
  name: field.text('渠道名称', 64),
  type: ChannelTypeField,
  config: ChannelConfigInput,
  state: field.flag('状态'),
  remark: field.remark(),
};
export const ChannelCreation = Type.Object(channelFields, { additionalProperties: false });
export const ChannelEdit = Type.Object({ id: field.id(), ...channelFields, ...versioned }, { additionalProperties: false });

/** sent: the vendor took it; throttled: a rate limit (ours or the vendor's); refused: the vendor refused it for good; retry: it failed for now. */
export const DELIVERY_VERDICTS = ['sent', 'throttled', 'refused', 'retry'] as const;
export type DeliveryVerdict = (typeof DELIVERY_VERDICTS)[number];

/** What a test message met: the vendor's HTTP status (or SMTP reply code) and answer, and our reading of them. */
export const ChannelTestResult = Type.Object({
  messageId: Type.Integer(),
  verdict: literals(DELIVERY_VERDICTS, '结果'),
  /** HTTP status or SMTP reply code; null when nothing answered (a refused target, a timeout). */
  status: field.nullable(Type.Integer()),
  /** The vendor's answer as it came (cut at 2,000 characters). */
  answer: Type.String(),
  /** Our reading: empty for sent, otherwise why. */
  reason: Type.String(),
});

export const channelEndpoints = {
  '/monitor/channel/inquire': post(ChannelInquire, paged(ChannelRecord), reads),
  '/monitor/channel/creation': post(ChannelCreation, ChannelRecord, acts('channel')),
  '/monitor/channel/edit': post(ChannelEdit, ChannelRecord, acts('channel')),
  '/monitor/channel/test': post(IdBody, ChannelTestResult, acts('channel')),
};
