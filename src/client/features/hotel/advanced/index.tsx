/** 高级设置 (hotel/advanced): integration configurations and their 初始化 action. */
import { Button } from 'antd';

import { ListScreen, Permitted, savedMsg } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useCreateAdvancedMutation, useEditAdvancedMutation, useInitialiseAdvancedMutation, useInquireAdvancedQuery } from './api';
import { INITIALISED_MSG, advancedColumns, advancedCreateDefaults, advancedFields, advancedFilters, advancedToForm, type AdvancedRow } from './config';

function InitialiseButton({ setting }: { setting: AdvancedRow }) {
  const [initialise, { isLoading }] = useInitialiseAdvancedMutation();
  const run = async () => {
    // On failure the base query toasts the server msg, which names what is missing.
    const envelope = await initialise({ id: setting.id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(INITIALISED_MSG);
  };
  return (
    <Button type="link" size="small" loading={isLoading} onClick={run}>
      初始化
    </Button>
  );
}

export default function HotelAdvancedScreen() {
  return (
    <ListScreen
      view="hotel/advanced"
      noun="配置"
      useInquire={useInquireAdvancedQuery}
      filters={advancedFilters}
      columns={advancedColumns}
      fields={advancedFields}
      createDefaults={advancedCreateDefaults}
      toForm={advancedToForm}
      create={{ useMutation: useCreateAdvancedMutation, successMsg: savedMsg }}
      edit={{ useMutation: useEditAdvancedMutation, successMsg: savedMsg }}
      rowActions={(setting) => (
        <Permitted view="hotel/advanced" resource="api_init">
          <InitialiseButton setting={setting} />
        </Permitted>
      )}
    />
  );
}
