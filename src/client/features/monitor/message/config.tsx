/**
 * What 通知记录 shows and filters on: each message, its channel, state, attempts and the vendor's
 * last answer. Channel type, kind and state labels are the menu dictionary's.
 */
import { Descriptions, Typography } from 'antd';

import type { DataOf } from '../../../../contract';
import { useChannelOptions } from '../../../components/channel-choices';
import { DictTag, useMenuDictContext, type ColumnConfig, type FieldConfig, type SelectOption } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';

export type MessageRow = DataOf<'/monitor/message/inquire'>['records'][number];

const STATE_COLORS: Readonly<Record<string, string>> = { queued: 'processing', sending: 'processing', sent: 'success', digested: 'default', failed: 'error' };

/** The 渠道 filter's choices: the screen's own 可选渠道. */
const useMessageChannelOptions = (): SelectOption[] => useChannelOptions('monitor/message');

export const messageFilters: FieldConfig[] = [
  { name: 'time', label: '创建时间', kind: 'timeRange', range: ['startAt', 'endAt'] },
  { name: 'channelId', label: '渠道', kind: 'select', useOptions: useMessageChannelOptions, numeric: true },
  { name: 'state', label: '状态', kind: 'select', dict: 'state' },
  { name: 'kind', label: '消息类型', kind: 'select', dict: 'kind' },
  { name: 'alarmId', label: '告警编号', kind: 'number', min: 1 },
  { name: 'digestId', label: '合并消息编号', kind: 'number', min: 1 },
];

const timeOrDash = (at: number | null) => (at === null ? '—' : formatTime(at));

/**
 * The vendor's status code and answer, one line in the list (the whole answer is in 详情); an SMTP
 * reply already starts with its code.
 */
function vendorCell(row: MessageRow): string {
  if (row.vendorStatus === null) return '';
  const status = String(row.vendorStatus);
  return row.vendorAnswer.startsWith(status) ? row.vendorAnswer : `${status} ${row.vendorAnswer}`;
}

/** The channel's name over its type, each cut to the column with the whole text on hover. */
function ChannelCell({ row }: { row: MessageRow }) {
  const dict = useMenuDictContext();
  const type = dict.labelOf('channelType', row.channelType);
  return (
    <>
      <Typography.Text ellipsis={{ tooltip: row.channelName }} style={{ display: 'block' }}>
        {row.channelName}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis={{ tooltip: type }} style={{ display: 'block' }}>
        {type}
      </Typography.Text>
    </>
  );
}

/** Times as 2026-03-01 09:30:00 on one line. */
const TIME_WIDTH = 170;

/**
 * The ellipsis columns make the table lay out fixed, so every column that must not wrap has its
 * width; the text columns share the rest, and below `MESSAGE_TABLE_WIDTH` the table scrolls sideways.
 */
export const messageColumns: ColumnConfig<MessageRow>[] = [
  { title: '编号', dataIndex: 'id', width: 72 },
  { title: '创建时间', dataIndex: 'createdAt', width: TIME_WIDTH, nowrap: true, render: (at: number) => formatTime(at) },
  { title: '渠道', dataIndex: 'channelName', width: 140, render: (_: string, row: MessageRow) => <ChannelCell row={row} /> },
  { title: '消息类型', dataIndex: 'kind', dict: 'kind', width: 100, nowrap: true },
  { title: '标题', dataIndex: 'title', ellipsis: true },
  {
    title: '状态',
    dataIndex: 'state',
    width: 130,
    nowrap: true,
    render: (state: string, row: MessageRow) => (
      <>
        <DictTag field="state" value={state} colors={STATE_COLORS} />
        {row.kind === 'digest' && <Typography.Text type="secondary">{row.digestCount} 条</Typography.Text>}
      </>
    ),
  },
  { title: '尝试次数', dataIndex: 'attempts', width: 90 },
  { title: '厂商应答', key: 'vendor', ellipsis: true, render: (_: unknown, row: MessageRow) => vendorCell(row) },
  { title: '最后错误', dataIndex: 'lastError', ellipsis: true },
  { title: '发送时间', dataIndex: 'sentAt', width: TIME_WIDTH, nowrap: true, render: timeOrDash },
];

/** The fixed columns, the 操作 column and room for the three text columns. */
export const MESSAGE_TABLE_WIDTH = 1320;

const block = { whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 } as const;

/** 详情: the whole text, the vendor's whole answer and where a digested message went. */
export function MessageDetail({ row }: { row: MessageRow }) {
  const dict = useMenuDictContext();
  return (
    <Descriptions column={1} size="small" bordered>
      <Descriptions.Item label="编号">{row.id}</Descriptions.Item>
      <Descriptions.Item label="渠道">{`${row.channelName}（${dict.labelOf('channelType', row.channelType)}）`}</Descriptions.Item>
      <Descriptions.Item label="消息类型">{dict.labelOf('kind', row.kind)}</Descriptions.Item>
      <Descriptions.Item label="告警编号">{row.alarmId ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="状态">{dict.labelOf('state', row.state)}</Descriptions.Item>
      <Descriptions.Item label="标题">{row.title}</Descriptions.Item>
      <Descriptions.Item label="内容">
        <Typography.Paragraph style={block}>{row.body}</Typography.Paragraph>
      </Descriptions.Item>
      <Descriptions.Item label="尝试次数">{row.attempts}</Descriptions.Item>
      <Descriptions.Item label="厂商状态码">{row.vendorStatus ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="厂商应答">
        <Typography.Paragraph code style={block}>
          {row.vendorAnswer || '（空）'}
        </Typography.Paragraph>
      </Descriptions.Item>
      <Descriptions.Item label="最后错误">{row.lastError || '—'}</Descriptions.Item>
      <Descriptions.Item label="创建时间">{formatTime(row.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="发送时间">{timeOrDash(row.sentAt)}</Descriptions.Item>
      {row.digestId !== null && <Descriptions.Item label="合并到">{`合并消息 ${row.digestId}`}</Descriptions.Item>}
      {row.kind === 'digest' && <Descriptions.Item label="合并条数">{row.digestCount}</Descriptions.Item>}
    </Descriptions>
  );
}
