/**
 * A cause's symptoms, unfolded under its row: the devices unreachable behind a gateway that is
 * down. Read on unfolding (the list counts them, `symptomCount`), the first page only: past it the
 * count says how many more there are.
 */
import { Table } from 'antd';

import { formatTime } from '../../../lib/time';
import { useInquireAlarmsQuery } from './api';
import type { AlarmRow } from './config';

const SHOWN = 50;

const columns = [
  { title: '设备', key: 'device', render: (_: unknown, row: AlarmRow) => `${row.deviceName}（${row.deviceSn}）` },
  { title: '开始时间', dataIndex: 'startedAt', render: (at: number) => formatTime(at) },
  { title: '状态', dataIndex: 'clearedAt', render: (at: number | null) => (at === null ? '不可达' : `已恢复 ${formatTime(at)}`) },
  { title: '信息', dataIndex: 'message' },
];

export function AlarmSymptoms({ cause }: { cause: AlarmRow }) {
  const { data, isFetching } = useInquireAlarmsQuery({ current: 1, size: SHOWN, params: { causeId: cause.id } });
  const more = (data?.total ?? 0) - (data?.records.length ?? 0);
  return (
    <Table<AlarmRow>
      rowKey="id"
      size="small"
      data-testid={`alarm-symptoms-${cause.id}`}
      loading={isFetching}
      columns={columns}
      dataSource={data?.records ?? []}
      pagination={false}
      footer={more > 0 ? () => `另有 ${more} 台设备未列出` : undefined}
    />
  );
}

/** Causes with symptoms unfold to list them (antd expandable rows of the list). */
export const symptomRows = {
  rowExpandable: (row: AlarmRow) => row.symptomCount > 0,
  expandedRowRender: (row: AlarmRow) => <AlarmSymptoms cause={row} />,
};
