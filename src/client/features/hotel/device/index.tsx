/**
 * 设备管理 (hotel/device): list, add (shows the new device key once), edit, reset the key, 重启 over
 * MQTT (command.tsx), 详情 (online since / offline since / last seen, status changes, recent alarms)
 * and, for those who may read the operation log, each device's records there (状态记录).
 */
import { Button, Popconfirm } from 'antd';
import { useState } from 'react';

import type { DataOf } from '../../../../contract';
import type { Envelope } from '../../../../contract/constants';
import { ListScreen, Permitted, savedMsg, stateBatchActions, type FieldConfig } from '../../../components/list-screen';
import { useOrgTreeGranted } from '../../../components/org-tree';
import { toast } from '../../../lib/toast';
import {
  useBatchDeviceStateMutation,
  useCapabilitiesQuery,
  useCreateDeviceMutation,
  useEditDeviceMutation,
  useInquireDevicesQuery,
  useRemoveDeviceMutation,
  useResetDeviceKeyMutation,
} from './api';
import { DEVICE_VIEW, deviceColumns, deviceCreateDefaults, deviceFields, deviceFilters, deviceImport, type DeviceRow } from './config';
import { DeviceKeyDialog, type IssuedKey } from './device-key-dialog';
import { DeviceDetail } from './detail-drawer';
import { DeviceStatusDrawer, OPERATION_LOG_VIEW } from './status-drawer';
import { commandColumn, RebootAction } from './command';
import { deviceHotelField, withHotelOfLocation } from './hotel-field';

const commandColumns = [...deviceColumns, commandColumn];

/** The form's fields; 所属酒店 after 位置, for a role holding the screen's 可选单位. */
const fieldsWithHotel: FieldConfig[] = deviceFields.flatMap((field) => (field.name === 'locationId' ? [field, deviceHotelField] : [field]));

export default function HotelDeviceScreen() {
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const [historyOf, setHistoryOf] = useState<DeviceRow | null>(null);
  // 重启 and its status column only where commands can be sent (MQTT configured).
  const commands = useCapabilitiesQuery(undefined).data?.mqtt === true;
  const [resetKey] = useResetDeviceKeyMutation();
  const [removeDevice] = useRemoveDeviceMutation();
  const withHotel = useOrgTreeGranted(DEVICE_VIEW);
  const fields = withHotel ? fieldsWithHotel : deviceFields;
  const showKey = ({ data }: Envelope<DataOf<'/hotel/device/creation'>>) => setIssued({ deviceName: data.device.name, deviceKey: data.deviceKey });

  const remove = async (id: number) => {
    const envelope = await removeDevice({ id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };

  const reset = async (id: number) => {
    const envelope = await resetKey({ id })
      .unwrap()
      .catch(() => null);
    if (!envelope) return;
    toast.success(envelope.msg);
    showKey(envelope);
  };

  return (
    <>
      <ListScreen
        view={DEVICE_VIEW}
        noun="设备"
        useInquire={useInquireDevicesQuery}
        filters={deviceFilters}
        columns={commands ? commandColumns : deviceColumns}
        fields={fields}
        createDefaults={deviceCreateDefaults}
        fromForm={{ create: withHotelOfLocation, edit: withHotelOfLocation }}
        create={{ useMutation: useCreateDeviceMutation, successMsg: savedMsg, onSuccess: showKey }}
        edit={{ useMutation: useEditDeviceMutation, successMsg: savedMsg }}
        exportTo={{ endpoint: '/hotel/device/export', fileName: '设备列表.xlsx' }}
        importFrom={deviceImport}
        batch={{
          resource: ['api_batchState', 'api_edit'],
          useMutation: useBatchDeviceStateMutation,
          actions: stateBatchActions('台设备', '禁用的设备立即标为离线，其心跳不再被接受。'),
        }}
        detail={{ title: (device) => `设备详情：${device.name}`, render: (device) => <DeviceDetail device={device} />, width: 720, resource: 'api_status' }}
        rowActions={(device) => (
          <>
            <Permitted view={DEVICE_VIEW} resource="api_keyReset">
              <Popconfirm title="重置后旧密钥立即失效，设备需换用新密钥。确定重置？" onConfirm={() => void reset(device.id)}>
                <Button type="link" size="small">
                  重置密钥
                </Button>
              </Popconfirm>
            </Permitted>
            {commands && (
              <Permitted view={DEVICE_VIEW} resource="api_reboot">
                <RebootAction device={device} />
              </Permitted>
            )}
            <Permitted view={DEVICE_VIEW} resource="api_removal">
              <Popconfirm
                title={`删除设备“${device.name}（${device.sn}）”？其密钥立即失效；状态记录、告警和操作日志保留可查，序列号不能再用。`}
                okButtonProps={{ danger: true }}
                onConfirm={() => void remove(device.id)}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            </Permitted>
            {/* The history is read from the operation log: offered to those who may read it. */}
            <Permitted view={OPERATION_LOG_VIEW} resource="api_inquire">
              <Button type="link" size="small" onClick={() => setHistoryOf(device)}>
                状态记录
              </Button>
            </Permitted>
          </>
        )}
      />
      {issued && <DeviceKeyDialog issued={issued} onClose={() => setIssued(null)} />}
      {historyOf && <DeviceStatusDrawer device={historyOf} onClose={() => setHistoryOf(null)} />}
    </>
  );
}
