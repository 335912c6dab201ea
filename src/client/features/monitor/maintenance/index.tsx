/** 维护窗口 (monitor/maintenance): silence a location subtree for a period; 删除 after a confirmation. */
import { Button, Popconfirm } from 'antd';

import { ListScreen, savedMsg, useGranted } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useCreateMaintenanceMutation, useEditMaintenanceMutation, useInquireMaintenanceQuery, useRemoveMaintenanceMutation } from './api';
import { maintenanceColumns, maintenanceCreateDefaults, maintenanceFields, maintenanceFilters, maintenanceFromForm, maintenanceToForm, type MaintenanceRow } from './config';

export const MAINTENANCE_VIEW = 'monitor/maintenance';

function RemoveButton({ window }: { window: MaintenanceRow }) {
  const [remove, { isLoading }] = useRemoveMaintenanceMutation();
  const run = async () => {
    const envelope = await remove({ id: window.id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  return (
    <Popconfirm title={`删除维护窗口“${window.name}”？`} onConfirm={() => void run()}>
      <Button type="link" size="small" danger loading={isLoading}>
        删除
      </Button>
    </Popconfirm>
  );
}

export default function MonitorMaintenanceScreen() {
  const mayRemove = useGranted(MAINTENANCE_VIEW, 'api_removal');
  return (
    <ListScreen
      view={MAINTENANCE_VIEW}
      noun="维护窗口"
      useInquire={useInquireMaintenanceQuery}
      filters={maintenanceFilters}
      columns={maintenanceColumns}
      fields={maintenanceFields}
      createDefaults={maintenanceCreateDefaults}
      toForm={maintenanceToForm}
      fromForm={maintenanceFromForm}
      create={{ useMutation: useCreateMaintenanceMutation, successMsg: savedMsg }}
      edit={{ useMutation: useEditMaintenanceMutation, successMsg: savedMsg }}
      rowActions={(window) => mayRemove && <RemoveButton window={window} />}
    />
  );
}
