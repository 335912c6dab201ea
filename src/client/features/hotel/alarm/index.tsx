/**
 * 告警管理 (hotel/alarm): the alarms the system raised (a device going offline), newest first,
 * causes only: a gateway's alarm unfolds to the devices unreachable behind it (symptoms.tsx);
 * 确认 and 清除 per row, and the per-device-type inactivity timeouts (超时设置) the offline sweep uses.
 */
import { Button, Popconfirm } from 'antd';
import { useState } from 'react';

import { ListScreen, Permitted } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useAcknowledgeAlarmsMutation, useClearAlarmsMutation, useInquireAlarmsQuery } from './api';
import { alarmColumns, alarmFilters } from './config';
import { TimeoutDialog } from './timeout-dialog';
import { symptomRows } from './symptoms';

export const ALARM_VIEW = 'hotel/alarm';

export default function HotelAlarmScreen() {
  const [timeoutsOpen, setTimeoutsOpen] = useState(false);
  const [acknowledge] = useAcknowledgeAlarmsMutation();
  const [clear] = useClearAlarmsMutation();

  // A refusal was toasted by the base query; a success toasts the server msg.
  const run = async (action: typeof acknowledge, id: number) => {
    const envelope = await action({ ids: [id] })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };

  return (
    <>
      <ListScreen
        view={ALARM_VIEW}
        noun="告警"
        useInquire={useInquireAlarmsQuery}
        filters={alarmFilters}
        columns={alarmColumns}
        expandable={symptomRows}
        toolbar={() => (
          <Permitted view={ALARM_VIEW} resource="api_timeouts">
            <Button onClick={() => setTimeoutsOpen(true)} data-testid="alarm-timeouts">
              超时设置
            </Button>
          </Permitted>
        )}
        rowActions={(alarm) => (
          <>
            {alarm.acknowledgedAt === null && (
              <Permitted view={ALARM_VIEW} resource="api_acknowledge">
                <Button type="link" size="small" onClick={() => void run(acknowledge, alarm.id)}>
                  确认
                </Button>
              </Permitted>
            )}
            {alarm.clearedAt === null && (
              <Permitted view={ALARM_VIEW} resource="api_clear">
                <Popconfirm title="清除后告警不再处于活动状态。确定清除？" onConfirm={() => void run(clear, alarm.id)}>
                  <Button type="link" size="small">
                    清除
                  </Button>
                </Popconfirm>
              </Permitted>
            )}
          </>
        )}
      />
      {timeoutsOpen && <TimeoutDialog onClose={() => setTimeoutsOpen(false)} />}
    </>
  );
}
