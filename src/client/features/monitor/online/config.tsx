/** What the online users screen shows and filters on. */
import { Space, Tag, Typography } from 'antd';

import type { DataOf } from '../../../../contract';
import type { ColumnConfig, FieldConfig } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';

export type OnlineRow = DataOf<'/monitor/online/inquire'>['records'][number];

export const onlineFilters: FieldConfig[] = [
  { name: 'userName', label: '用户名', kind: 'text', max: 32 },
  { name: 'ip', label: 'IP 地址', kind: 'text', max: 64 },
];

export const onlineColumns: ColumnConfig<OnlineRow>[] = [
  {
    title: '用户',
    dataIndex: 'userName',
    render: (userName: string, row) => (
      <Space size={4} wrap>
        {userName}
        <Typography.Text type="secondary">{row.nickName}</Typography.Text>
        {row.current === 1 && <Tag color="blue">当前会话</Tag>}
      </Space>
    ),
  },
  { title: '角色', dataIndex: 'roleName', nowrap: true },
  { title: 'IP 地址', dataIndex: 'ip' },
  { title: '浏览器', dataIndex: 'browser', render: (browser: string, row) => [browser, row.os].filter(Boolean).join(' / ') },
  { title: '登录时间', dataIndex: 'signedInAt', nowrap: true, render: (at: number) => formatTime(at) },
  { title: '最后活动', dataIndex: 'lastSeenAt', nowrap: true, render: (at: number) => formatTime(at) },
  { title: '过期时间', dataIndex: 'expiresAt', nowrap: true, render: (at: number) => formatTime(at) },
];
