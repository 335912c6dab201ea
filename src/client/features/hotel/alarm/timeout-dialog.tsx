/**
 * 超时设置: each device type's inactivity timeout in minutes. A type left empty uses the offline
 * sweep's own minutes (the 设备离线检测 schedule's parameter), shown as the default.
 */
import { Button, InputNumber, Modal, Table } from 'antd';
import { useState } from 'react';

import type { DataOf } from '../../../../contract';
import { useGranted } from '../../../components/list-screen/menu-grants';
import { toast } from '../../../lib/toast';
import { useDeviceTypeTimeoutsQuery, useEditDeviceTypeTimeoutMutation } from './api';

type TypeTimeout = DataOf<'/hotel/alarm/timeout/inquire'>['types'][number];
/** The contract's TIMEOUT_MINUTES_MAX (a week); not imported, so no schema code reaches the browser. */
const TIMEOUT_MINUTES_MAX = 10_080;

function TimeoutInput({ row, mayEdit }: { row: TypeTimeout; mayEdit: boolean }) {
  const [value, setValue] = useState<number | null>(row.minutes);
  const [edit, { isLoading }] = useEditDeviceTypeTimeoutMutation();
  const save = async () => {
    const envelope = await edit({ type: row.type, minutes: value })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  return (
    <>
      <InputNumber aria-label={`${row.label}超时分钟数`} min={1} max={TIMEOUT_MINUTES_MAX} precision={0} value={value} onChange={setValue} disabled={!mayEdit} placeholder="默认" />
      {mayEdit && (
        <Button type="link" size="small" loading={isLoading} disabled={value === row.minutes} onClick={() => void save()}>
          保存
        </Button>
      )}
    </>
  );
}

export function TimeoutDialog({ onClose }: { onClose: () => void }) {
  const { data, isFetching } = useDeviceTypeTimeoutsQuery();
  const mayEdit = useGranted('hotel/alarm', 'api_timeoutEdit');
  const fallback = data?.defaultMinutes === null || data === undefined ? '设备离线检测任务的分钟数' : `${data.defaultMinutes} 分钟`;
  return (
    <Modal open title="设备类型超时设置" footer={null} onCancel={onClose} width={560}>
      <p>设备超过设定的分钟数没有心跳即判为离线并产生告警；留空的类型使用默认值（{fallback}）。</p>
      <Table<TypeTimeout>
        rowKey="type"
        size="small"
        loading={isFetching}
        pagination={false}
        dataSource={data?.types ?? []}
        columns={[
          { title: '设备类型', dataIndex: 'label' },
          { title: '超时（分钟）', dataIndex: 'minutes', render: (_: unknown, row) => <TimeoutInput key={`${row.type}:${row.minutes}`} row={row} mayEdit={mayEdit} /> },
        ]}
      />
    </Modal>
  );
}
