/**
 * 状态记录: one device's records in the operation log, newest first: going offline (the sweep) and
 * back online (its heartbeat), and what operators did to it. Outcome labels are the operation
 * log's dictionary.
 */
import { Drawer } from 'antd';
import { useMemo } from 'react';

import type { BodyOf, DataOf } from '../../../../contract';
import { PagedTable, useInquire, useMenuDict, type ColumnConfig, type MenuDict, type PagedQueryHook } from '../../../components/list-screen';
import { formatTime } from '../../../lib/time';
import { useDeviceHistoryQuery } from './api';
import type { DeviceRow } from './config';

type HistoryRow = DataOf<'/monitor/operation/inquire'>['records'][number];

/** The operation log's menu element, whose dictionary labels the outcomes. */
export const OPERATION_LOG_VIEW = 'monitor/operation';

const useHistoryPage: PagedQueryHook<BodyOf<'/monitor/operation/inquire'>, HistoryRow> = useDeviceHistoryQuery;

function historyColumns(dict: MenuDict): ColumnConfig<HistoryRow>[] {
  return [
    { title: '时间', dataIndex: 'at', width: 170, render: (at: number) => formatTime(at) },
    { title: '操作', dataIndex: 'action', width: 110 },
    { title: '操作人', dataIndex: 'operatorName', width: 140 },
    { title: '结果', dataIndex: 'outcome', width: 70, render: (outcome: string) => dict.labelOf('outcome', outcome) },
    { title: '信息', dataIndex: 'msg', ellipsis: true },
  ];
}

interface DeviceStatusDrawerProps {
  device: DeviceRow;
  onClose: () => void;
}

export function DeviceStatusDrawer({ device, onClose }: DeviceStatusDrawerProps) {
  const fixedParams = useMemo(() => ({ targetType: 'device', targetId: String(device.id) }), [device.id]);
  const inquiry = useInquire(useHistoryPage, { fixedParams });
  const dict = useMenuDict(OPERATION_LOG_VIEW);
  const columns = useMemo(() => historyColumns(dict), [dict]);
  return (
    <Drawer open title={`状态记录：${device.name}`} size={860} onClose={onClose}>
      <PagedTable inquiry={inquiry} columns={columns} />
    </Drawer>
  );
}
