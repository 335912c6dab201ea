/**
 * 设备详情: a device as the hotel runs it — what it is (serial number, type, location, remark),
 * online since / offline since / last seen (recency, the exact time on hover), its online/offline
 * changes newest first, and its recent alarms. Read from /hotel/device/status, which every role
 * holding the device list is granted.
 */
import { Badge, Descriptions, Empty, Table, Tag, Typography } from 'antd';
import { useState } from 'react';

import type { DataOf } from '../../../../contract';
import { alarmSeverityLabel, alarmTypeLabel } from '../../../../contract/constants';
import { useMenuDictContext } from '../../../components/list-screen';
import { RelativeTime } from '../../../components/relative-time';
import { RowList } from '../../../components/row-list';
import { formatTime } from '../../../lib/time';
import { useDeviceStatusQuery } from './api';
import type { DeviceRow } from './config';

type Transition = DataOf<'/hotel/device/status'>['transitions']['records'][number];

const PAGE_SIZE = 10;
const CAUSES: Record<string, string> = { heartbeat: '恢复心跳', sweep: '心跳超时' };
/** A device starts offline and the history keeps every change, so its oldest one coming online is its first heartbeat. */
const FIRST_ONLINE = '首次上线';

export function DeviceDetail({ device }: { device: DeviceRow }) {
  const [current, setCurrent] = useState(1);
  const { data, isFetching } = useDeviceStatusQuery({ id: device.id, size: PAGE_SIZE, current });
  const online = (data?.online ?? device.online) === 1;
  const dict = useMenuDictContext();
  const total = data?.transitions.total ?? 0;
  // The page the rows shown belong to, not the page asked for: while the next page loads the
  // previous one stays on screen, and counting its rows from the new page's start would call one
  // of them the first heartbeat.
  const shownPage = data?.transitions.current ?? current;
  const causeOf = (transition: Transition, index: number) => {
    const oldest = (shownPage - 1) * PAGE_SIZE + index === total - 1;
    return oldest && transition.online === 1 && transition.cause === 'heartbeat' ? FIRST_ONLINE : (CAUSES[transition.cause] ?? transition.cause);
  };
  return (
    <>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="序列号">{device.sn}</Descriptions.Item>
        <Descriptions.Item label="设备类型">{dict.labelOf('type', device.type)}</Descriptions.Item>
        <Descriptions.Item label="位置">{device.locationPath || '—'}</Descriptions.Item>
        <Descriptions.Item label="备注">{device.remark || '—'}</Descriptions.Item>
        <Descriptions.Item label="在线状态">{online ? <Badge status="success" text="在线" /> : <Badge status="default" text="离线" />}</Descriptions.Item>
        <Descriptions.Item label="上线时间">
          <RelativeTime value={data?.onlineSince ?? device.onlineSince} empty="—" />
        </Descriptions.Item>
        <Descriptions.Item label="离线时间">
          <RelativeTime value={data?.offlineSince ?? device.offlineSince} empty="—" />
        </Descriptions.Item>
        <Descriptions.Item label="最后上报">
          <RelativeTime value={data?.lastSeenAt ?? device.lastSeenAt} empty="从未上报" />
        </Descriptions.Item>
      </Descriptions>

      <Typography.Title level={5} style={{ marginTop: 24 }}>
        状态变化
      </Typography.Title>
      <Table<Transition>
        rowKey="id"
        size="small"
        loading={isFetching}
        dataSource={data?.transitions.records ?? []}
        pagination={{ current, pageSize: PAGE_SIZE, total, onChange: setCurrent, showSizeChanger: false }}
        columns={[
          { title: '时间', dataIndex: 'at', render: (at: number) => formatTime(at) },
          { title: '状态', dataIndex: 'online', render: (value: number) => (value === 1 ? <Tag color="green">上线</Tag> : <Tag>离线</Tag>) },
          { title: '原因', dataIndex: 'cause', render: (_cause: string, transition, index) => causeOf(transition, index) },
        ]}
      />

      <Typography.Title level={5} style={{ marginTop: 24 }}>
        最近告警
      </Typography.Title>
      {data && data.alarms.length === 0 ? (
        <Empty description="暂无告警" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <RowList
          items={data?.alarms ?? []}
          render={(alarm) => ({
            main: (
              <>
                {alarm.clearedAt === null ? <Tag color="red">活动</Tag> : <Tag>已清除</Tag>}
                {alarmTypeLabel(alarm.type)}（{alarmSeverityLabel(alarm.severity)}）· {alarm.count} 次{alarm.acknowledgeNote && ` · 确认备注：${alarm.acknowledgeNote}`}
              </>
            ),
            side: formatTime(alarm.startedAt),
          })}
        />
      )}
    </>
  );
}
