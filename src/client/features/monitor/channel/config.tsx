/**
 * What the channel screen shows and edits (docs/api/monitor.md, Notifications). The form is flat:
 * each type shows only its own settings, and `fromForm` gathers them into the `config` the server
 * takes. Credentials (the robot's address, which carries its token, the signing secret, the SMTP
 * password) are write-only like the advanced settings' secret: the list shows masks, the edit form
 * starts with them empty, and an empty one keeps the stored value.
 */
import { Typography } from 'antd';

import type { BodyOf, DataOf } from '../../../../contract';
import { DictTag, type ColumnConfig, type FieldConfig, type FormValues, type SelectOption, type SortKeyOf } from '../../../components/list-screen';

export type ChannelRow = DataOf<'/monitor/channel/inquire'>['records'][number];
type ChannelBody = BodyOf<'/monitor/channel/creation'>;

const ROBOTS = ['dingtalk', 'wecom', 'feishu'] as const;
const HTTP_TYPES = [...ROBOTS, 'webhook'] as const;
const SIGNED_TYPES = ['dingtalk', 'feishu', 'webhook'] as const;
const OWN_RATE_TYPES = ['webhook', 'email'] as const;
const EMAIL = ['email'] as const;

/** The contract's limits, repeated here so that no schema code reaches the browser. */
const URL_MAX = 1000;
const SECRET_MAX = 200;
const RATE_MAX = 6000;
const MAX_ATTEMPTS_LIMIT = 10;

const SECURITY_OPTIONS: SelectOption[] = [
  { label: 'STARTTLS（默认，常用端口 587）', value: 'starttls' },
  { label: 'SSL/TLS（常用端口 465）', value: 'tls' },
  { label: '不加密（端口 25，仅限内网）', value: 'none' },
];
const useSecurityOptions = () => SECURITY_OPTIONS;

const HEALTH_COLORS: Readonly<Record<string, string>> = { ok: 'success', unhealthy: 'error', unknown: 'default' };

export const channelFilters: FieldConfig[] = [
  { name: 'name', label: '渠道名称', kind: 'text', max: 64 },
  { name: 'type', label: '渠道类型', kind: 'select', dict: 'channelType' },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
  { name: 'health', label: '健康状态', kind: 'select', dict: 'health' },
];

/** Where a channel sends: the masked address of a robot or webhook, the recipients of e-mail. */
const targetOf = (row: ChannelRow) =>
  row.type === 'email' ? `${row.config.host ?? ''}:${row.config.port ?? ''} → ${(row.config.to ?? []).join(', ')}` : (row.config.urlMasked ?? '');

export const channelColumns: ColumnConfig<ChannelRow, SortKeyOf<BodyOf<'/monitor/channel/inquire'>>>[] = [
  { title: '渠道名称', dataIndex: 'name', sortKey: 'name', nowrap: true },
  { title: '渠道类型', dataIndex: 'type', dict: 'channelType', sortKey: 'type', nowrap: true },
  { title: '发送目标', key: 'target', ellipsis: true, render: (_: unknown, row: ChannelRow) => targetOf(row) },
  { title: '状态', dataIndex: 'state', dict: 'state', sortKey: 'state', nowrap: true },
  {
    title: '健康状态',
    dataIndex: 'health',
    sortKey: 'health',
    render: (health: string, row: ChannelRow) => (
      <>
        <DictTag field="health" value={health} colors={HEALTH_COLORS} />
        {row.healthReason && (
          <Typography.Text type={health === 'unhealthy' ? 'danger' : 'secondary'} style={{ display: 'block' }}>
            {row.healthReason}
          </Typography.Text>
        )}
      </>
    ),
  },
  { title: '发送失败', dataIndex: 'failedCount', width: 90 },
  { title: '更新时间', dataIndex: 'updatedAt', sortKey: 'updatedAt', relativeTime: true, nowrap: true },
];

const when = (values: readonly string[]) => ({ field: 'type', values });

const urlField: FieldConfig = {
  name: 'url',
  label: 'Webhook 地址',
  kind: 'password',
  max: URL_MAX,
  pattern: { regex: /^https?:\/\/\S+$/, message: 'Webhook 地址应以 http:// 或 https:// 开头' },
  shownWhen: when(HTTP_TYPES),
};
const secretField: FieldConfig = { name: 'secret', label: '签名密钥', kind: 'password', max: SECRET_MAX, shownWhen: when(SIGNED_TYPES) };
const passwordField: FieldConfig = { name: 'password', label: 'SMTP 密码', kind: 'password', max: SECRET_MAX, shownWhen: when(EMAIL) };
/** An edit shows the credentials empty: left empty, the stored value stays (unless the type changes). */
const KEEP_HINT = '留空则保留原值；更换渠道类型时需重新填写';

export const channelFields: FieldConfig[] = [
  { name: 'name', label: '渠道名称', kind: 'text', required: true, max: 64 },
  { name: 'type', label: '渠道类型', kind: 'select', dict: 'channelType', required: true },
  { ...urlField, required: true, only: 'create', extra: '机器人的地址含其令牌，保存后只显示掩码' },
  { ...urlField, only: 'edit', extra: KEEP_HINT },
  { ...secretField, only: 'create', extra: '钉钉“加签”、飞书“签名校验”的密钥；Webhook 用它计算 X-Hotel-Signature' },
  { ...secretField, only: 'edit', extra: KEEP_HINT },
  { name: 'host', label: 'SMTP 服务器', kind: 'text', required: true, max: 200, shownWhen: when(EMAIL) },
  { name: 'port', label: 'SMTP 端口', kind: 'number', required: true, min: 1, max: 65535, shownWhen: when(EMAIL) },
  { name: 'security', label: '加密方式', kind: 'select', useOptions: useSecurityOptions, shownWhen: when(EMAIL) },
  { name: 'user', label: 'SMTP 用户名', kind: 'text', max: 200, shownWhen: when(EMAIL) },
  { ...passwordField, only: 'create' },
  { ...passwordField, only: 'edit', extra: KEEP_HINT },
  { name: 'from', label: '发件人', kind: 'text', required: true, max: 200, shownWhen: when(EMAIL) },
  { name: 'to', label: '收件人', kind: 'textarea', required: true, shownWhen: when(EMAIL), extra: '每行一个邮箱地址（也可用逗号分隔），最多 50 个' },
  { name: 'ratePerMinute', label: '每分钟发送上限', kind: 'number', min: 0, max: RATE_MAX, shownWhen: when(OWN_RATE_TYPES), extra: '0 或留空：不限（机器人按厂商的限额）' },
  { name: 'maxAttempts', label: '最多尝试次数', kind: 'number', min: 1, max: MAX_ATTEMPTS_LIMIT, extra: '默认 5 次；最后一次失败后成为死信，可在通知记录中重发' },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
];

export const channelCreateDefaults: FormValues = { type: 'dingtalk', security: 'starttls', port: 587, state: 1, remark: '' };

const CONFIG_KEYS = ['url', 'secret', 'host', 'port', 'security', 'user', 'password', 'from', 'to', 'ratePerMinute', 'maxAttempts'] as const;

const recipients = (text: unknown) => (typeof text === 'string' ? text : '').split(/[\s,，;；]+/).filter((address) => address !== '');

/** The flat form's values as the server takes them: the settings the type showed go into `config`, empty ones left out. */
function toBody(values: FormValues): ChannelBody {
  const config: ChannelBody['config'] = {};
  for (const key of CONFIG_KEYS) {
    const value = key === 'to' && key in values ? recipients(values.to) : values[key];
    if (value !== undefined && value !== null && value !== '') Object.assign(config, { [key]: value });
  }
  return { name: values.name as string, type: values.type as ChannelBody['type'], config, state: values.state as number, remark: (values.remark as string | undefined) ?? '' };
}

export const channelFromForm = {
  create: toBody,
  edit: (values: FormValues, row: ChannelRow): BodyOf<'/monitor/channel/edit'> => ({ ...toBody(values), id: row.id, version: row.version }),
};

/** A channel's edit form: its settings as shown, the credentials empty (= keep them). */
export const channelToForm = (row: ChannelRow): FormValues => ({
  name: row.name,
  type: row.type,
  url: '',
  secret: '',
  password: '',
  host: row.config.host,
  port: row.config.port,
  security: row.config.security,
  user: row.config.user,
  from: row.config.from,
  to: (row.config.to ?? []).join('\n'),
  ratePerMinute: row.config.ratePerMinute,
  maxAttempts: row.config.maxAttempts,
  state: row.state,
  remark: row.remark,
});
