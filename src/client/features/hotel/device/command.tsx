/**
 * Remote commands over MQTT (重启): the row action, confirmed first, and the latest command's status
 * on the list. The server refuses when MQTT is not configured or the device is disabled; its msg is
 * the toast.
 */
import { Button, Popconfirm, Tag } from 'antd';

import type { ColumnConfig } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useRebootDeviceMutation } from './api';
import type { DeviceRow } from './config';

type CommandStatus = NonNullable<DeviceRow['lastCommand']>['status'];

const STATUS: Record<CommandStatus, { label: string; color: string }> = {
  sent: { label: '已发送', color: 'processing' },
  acked: { label: '已确认', color: 'success' },
  timed_out: { label: '超时', color: 'warning' },
};

export const commandColumn: ColumnConfig<DeviceRow> = {
  title: '远程指令',
  key: 'lastCommand',
  render: (_value: unknown, device: DeviceRow) => {
    const status = device.lastCommand ? STATUS[device.lastCommand.status] : undefined;
    return status ? <Tag color={status.color}>重启 {status.label}</Tag> : null;
  },
};

export function RebootAction({ device }: { device: DeviceRow }) {
  const [reboot] = useRebootDeviceMutation();
  const confirm = async () => {
    const envelope = await reboot({ id: device.id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  return (
    <Popconfirm title={`向设备 ${device.name} 发送重启指令？设备确认后将重新启动。`} onConfirm={() => void confirm()}>
      <Button type="link" size="small">
        重启
      </Button>
    </Popconfirm>
  );
}
