/** 设备管理 (hotel/device): list, add (shows the new device key once), edit, reset the key. */
import { Button, Popconfirm } from 'antd';
import { useState } from 'react';

import type { DataOf } from '../../../../contract';
import type { Envelope } from '../../../../contract/constants';
import { ListScreen, savedMsg } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useCreateDeviceMutation, useEditDeviceMutation, useInquireDevicesQuery, useResetDeviceKeyMutation } from './api';
import { deviceColumns, deviceCreateDefaults, deviceFields, deviceFilters } from './config';
import { DeviceKeyDialog, type IssuedKey } from './device-key-dialog';

export default function HotelDeviceScreen() {
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const [resetKey] = useResetDeviceKeyMutation();
  const showKey = ({ data }: Envelope<DataOf<'/hotel/device/creation'>>) =>
    setIssued({ deviceName: data.device.name, deviceKey: data.deviceKey });

  const reset = async (id: number) => {
    const envelope = await resetKey({ id }).unwrap().catch(() => null);
    if (!envelope) return;
    toast.success(envelope.msg);
    showKey(envelope);
  };

  return (
    <>
      <ListScreen
        view="hotel/device"
        noun="设备"
        useInquire={useInquireDevicesQuery}
        filters={deviceFilters}
        columns={deviceColumns}
        fields={deviceFields}
        createDefaults={deviceCreateDefaults}
        create={{ useMutation: useCreateDeviceMutation, successMsg: savedMsg, onSuccess: showKey }}
        edit={{ useMutation: useEditDeviceMutation, successMsg: savedMsg }}
        rowActions={(device) => (
          <Popconfirm title="重置后旧密钥立即失效，设备需换用新密钥。确定重置？" onConfirm={() => reset(device.id)}>
            <Button type="link" size="small">
              重置密钥
            </Button>
          </Popconfirm>
        )}
      />
      {issued && <DeviceKeyDialog issued={issued} onClose={() => setIssued(null)} />}
    </>
  );
}
