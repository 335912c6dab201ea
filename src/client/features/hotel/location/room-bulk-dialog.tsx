/** 批量创建房间 on a floor: a from..to range; numbers the floor already has are skipped and counted. */
import { Alert, Form, Input, Modal } from 'antd';
import { useId, useState } from 'react';

import type { DataOf } from '../../../../contract';
import { toast } from '../../../lib/toast';
import { validateForm } from '../../../lib/validate-form';
import { useCreateRoomsMutation } from './api';
import type { LocationRow } from '../../../components/location-tree';

const DIGITS = { pattern: /^\d{1,8}$/, message: '房间号只能包含数字，最多 8 位' };

interface Props {
  floor: LocationRow;
  /** After rooms were created (e.g. to unfold the floor). */
  onCreated?: () => void;
  onClose: () => void;
}

export function RoomBulkDialog({ floor, onCreated, onClose }: Props) {
  const [form] = Form.useForm<{ from: string; to: string }>();
  const formName = useId();
  const [createRooms, { isLoading }] = useCreateRoomsMutation();
  const [result, setResult] = useState<DataOf<'/hotel/location/rooms/creation'> | null>(null);

  const submit = async () => {
    const values = await validateForm(form);
    if (!values) return;
    // On a refusal the base query has toasted the server msg; the dialog stays open.
    const envelope = await createRooms({ floorId: floor.id, from: values.from.trim(), to: values.to.trim() })
      .unwrap()
      .catch(() => null);
    if (!envelope) return;
    toast.success(envelope.msg);
    setResult(envelope.data);
    onCreated?.();
  };

  return (
    <Modal title={`批量创建房间：${floor.name}`} open okText="创建" cancelText="关闭" confirmLoading={isLoading} onOk={() => void submit()} onCancel={onClose} destroyOnHidden>
      <Form form={form} name={formName} layout="vertical" onValuesChange={() => setResult(null)}>
        <Form.Item name="from" label="开始房间号" rules={[{ required: true, message: '请输入开始房间号' }, DIGITS]} extra="例如 0801；结束房间号位数相同">
          <Input placeholder="请输入开始房间号" />
        </Form.Item>
        <Form.Item name="to" label="结束房间号" rules={[{ required: true, message: '请输入结束房间号' }, DIGITS]}>
          <Input placeholder="请输入结束房间号" />
        </Form.Item>
      </Form>
      {result && <Alert type="success" showIcon title={`已创建 ${result.created} 个房间，跳过已存在的 ${result.skipped} 个`} />}
    </Modal>
  );
}
