/**
 * 告警管理 (hotel/alarm): the alarms the system raised (a device going offline), newest first;
 * 确认 and 清除 per row, and the per-device-type inactivity timeouts (超时设置) the offline sweep uses.
 * A notification's console link (`/hotel/alarm?id=12`) opens the list showing that one alarm, so
 * whoever followed it can acknowledge or clear it at once; 查看全部告警 drops the link's id.
 */
import { Alert, Button, Popconfirm } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

import { ListScreen, Permitted } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useAcknowledgeAlarmsMutation, useClearAlarmsMutation, useInquireAlarmsQuery } from './api';
import { alarmColumns, alarmFilters } from './config';
import { TimeoutDialog } from './timeout-dialog';

export const ALARM_VIEW = 'hotel/alarm';

/** The alarm a link names (`?id=`), when it is an id at all: anything else shows the whole list. */
function useLinkedAlarm(): [number | undefined, () => void] {
  const [search, setSearch] = useSearchParams();
  const text = search.get('id');
  const id = text !== null && /^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined;
  const showAll = () =>
    setSearch((previous) => {
      const next = new URLSearchParams(previous);
      next.delete('id');
      return next;
    });
  return [id, showAll];
}

export default function HotelAlarmScreen() {
  const [timeoutsOpen, setTimeoutsOpen] = useState(false);
  const [acknowledge] = useAcknowledgeAlarmsMutation();
  const [clear] = useClearAlarmsMutation();
  const [linkedId, showAll] = useLinkedAlarm();
  const fixedParams = useMemo(() => (linkedId === undefined ? undefined : { id: linkedId }), [linkedId]);

  // A refusal was toasted by the base query; a success toasts the server msg.
  const run = async (action: typeof acknowledge, id: number) => {
    const envelope = await action({ ids: [id] })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };

  return (
    <>
      {linkedId !== undefined && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={`正在查看告警 ${linkedId}（来自通知链接）`}
          action={
            <Button size="small" onClick={showAll}>
              查看全部告警
            </Button>
          }
        />
      )}
      <ListScreen
        view={ALARM_VIEW}
        noun="告警"
        useInquire={useInquireAlarmsQuery}
        fixedParams={fixedParams}
        filters={alarmFilters}
        columns={alarmColumns}
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
