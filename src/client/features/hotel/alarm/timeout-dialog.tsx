/**
 * 超时设置: each device type's inactivity timeout in minutes. A type left empty uses the offline
 * sweep's own minutes (the 设备离线检测 schedule's parameter), shown as the default. One 保存 saves
 * every type changed; a value out of range is named under its input before anything is sent.
 */
import { Button, Form, InputNumber, Modal, Table } from 'antd';
import { useEffect, useState } from 'react';

import type { DataOf } from '../../../../contract';
import { useGranted } from '../../../components/list-screen/menu-grants';
import { ALARM_VIEW } from '../../../config/views';
import { toast } from '../../../lib/toast';
import { useDeviceTypeTimeoutsQuery, useEditDeviceTypeTimeoutMutation } from './api';

type TypeTimeout = DataOf<'/hotel/alarm/timeout/inquire'>['types'][number];
type Minutes = Record<string, number | null | undefined>;
/** The contract's TIMEOUT_MINUTES_MAX (a week); not imported, so no schema code reaches the browser. */
const TIMEOUT_MINUTES_MAX = 10_080;
const OUT_OF_RANGE_MSG = `请输入 1–${TIMEOUT_MINUTES_MAX} 之间的整数分钟，留空使用默认值`;
const UNCHANGED_MSG = '没有修改，无需保存';
const SAVED_MSG = '保存成功';

/** Empty means the default; anything else is whole minutes from one to a week. */
const inRange = (_rule: unknown, value: number | null | undefined) =>
  value === null || value === undefined || (Number.isInteger(value) && value >= 1 && value <= TIMEOUT_MINUTES_MAX)
    ? Promise.resolve()
    : Promise.reject(new Error(OUT_OF_RANGE_MSG));

export function TimeoutDialog({ onClose }: { onClose: () => void }) {
  const { data, isFetching } = useDeviceTypeTimeoutsQuery();
  const mayEdit = useGranted(ALARM_VIEW, 'api_timeoutEdit');
  const [form] = Form.useForm<Minutes>();
  const [edit] = useEditDeviceTypeTimeoutMutation();
  const [saving, setSaving] = useState(false);
  const types = data?.types;
  useEffect(() => {
    if (types) form.setFieldsValue(Object.fromEntries(types.map((row) => [row.type, row.minutes])));
  }, [form, types]);
  const fallback = data?.defaultMinutes === null || data === undefined ? '设备离线检测任务的分钟数' : `${data.defaultMinutes} 分钟`;

  const save = async (values: Minutes) => {
    const changed = (types ?? []).filter((row) => (values[row.type] ?? null) !== row.minutes);
    if (changed.length === 0) {
      toast.success(UNCHANGED_MSG);
      return;
    }
    setSaving(true);
    // One type per call, in order; a refusal (toasted by the base query) stops the rest.
    for (const row of changed) {
      const envelope = await edit({ type: row.type, minutes: values[row.type] ?? null })
        .unwrap()
        .catch(() => null);
      if (!envelope) {
        setSaving(false);
        return;
      }
    }
    setSaving(false);
    toast.success(SAVED_MSG);
  };

  return (
    <Modal
      open
      title="设备类型超时设置"
      onCancel={onClose}
      width={560}
      footer={
        mayEdit ? (
          <>
            <Button onClick={onClose}>关闭</Button>
            <Button type="primary" loading={saving} onClick={() => form.submit()}>
              保存
            </Button>
          </>
        ) : null
      }
    >
      <p>设备超过设定的分钟数没有心跳即判为离线并产生告警；留空的类型使用默认值（{fallback}）。</p>
      <Form form={form} onFinish={(values) => void save(values)} disabled={!mayEdit}>
        <Table<TypeTimeout>
          rowKey="type"
          size="small"
          loading={isFetching}
          pagination={false}
          dataSource={types ?? []}
          columns={[
            { title: '设备类型', dataIndex: 'label' },
            {
              title: '超时（分钟）',
              dataIndex: 'minutes',
              render: (_: unknown, row) => (
                <Form.Item name={row.type} rules={[{ validator: inRange }]} style={{ margin: 0 }}>
                  <InputNumber aria-label={`${row.label}超时分钟数`} precision={0} placeholder="默认" style={{ width: 160 }} />
                </Form.Item>
              ),
            },
          ]}
        />
      </Form>
    </Modal>
  );
}
