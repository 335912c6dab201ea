/**
 * 告警管理 (hotel/alarm): the alarms the system raised (a device going offline), newest first,
 * causes only: a gateway's alarm unfolds to the devices unreachable behind it (symptoms.tsx);
 * 确认 (asked first, with an optional note; only for alarms neither acknowledged nor cleared) and
 * 清除 per row, 批量确认 on the ticked rows, and the per-device-type inactivity timeouts (超时设置)
 * the offline sweep uses. A notification's console link (`/hotel/alarm?id=12`) opens the list
 * showing that one alarm, so whoever followed it can acknowledge or clear it at once; 查看全部告警
 * drops the link's id.
 */
import { Alert, Button, Popconfirm } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

import { ListScreen, NoteConfirmDialog, Permitted } from '../../../components/list-screen';
import { ALARM_VIEW } from '../../../config/views';
import { toast } from '../../../lib/toast';
import { useAcknowledgeAlarmsMutation, useBatchAcknowledgeAlarmsMutation, useClearAlarmsMutation, useInquireAlarmsQuery } from './api';
import { ACKNOWLEDGE_NOTE, ALARM_TABLE_WIDTH, alarmColumns, alarmFilters, isOpen, type AlarmRow } from './config';
import { TimeoutDialog } from './timeout-dialog';
import { symptomRows } from './symptoms';

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
  const [acknowledging, setAcknowledging] = useState<AlarmRow | null>(null);
  const [acknowledge, acknowledgeState] = useAcknowledgeAlarmsMutation();
  const [clear] = useClearAlarmsMutation();
  const [linkedId, showAll] = useLinkedAlarm();
  const fixedParams = useMemo(() => (linkedId === undefined ? undefined : { id: linkedId }), [linkedId]);

  // A refusal was toasted by the base query; a success toasts the server msg.
  const run = async (action: typeof clear, id: number) => {
    const envelope = await action({ ids: [id] })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  const acknowledgeOne = async (alarm: AlarmRow, note: string) => {
    const envelope = await acknowledge({ ids: [alarm.id], note })
      .unwrap()
      .catch(() => null);
    if (!envelope) return;
    toast.success(envelope.msg);
    setAcknowledging(null);
  };

  return (
    <>
      {linkedId !== undefined && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`正在查看告警 ${linkedId}（来自通知链接）`}
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
        minWidth={ALARM_TABLE_WIDTH}
        batch={{
          resource: ['api_batchAcknowledge', 'api_acknowledge'],
          useMutation: useBatchAcknowledgeAlarmsMutation,
          selectable: isOpen,
          actions: [{ label: '批量确认', confirm: (count) => `确定确认所选的 ${count} 条告警？`, note: ACKNOWLEDGE_NOTE, body: (ids, note) => ({ ids, note }) }],
        }}
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
            {isOpen(alarm) && (
              <Permitted view={ALARM_VIEW} resource="api_acknowledge">
                <Button type="link" size="small" onClick={() => setAcknowledging(alarm)}>
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
      {acknowledging && (
        <NoteConfirmDialog
          title="确认告警"
          question={`确定确认告警“${acknowledging.deviceName}（${acknowledging.deviceSn}）”？`}
          note={ACKNOWLEDGE_NOTE}
          busy={acknowledgeState.isLoading}
          onOk={(note) => void acknowledgeOne(acknowledging, note)}
          onCancel={() => setAcknowledging(null)}
        />
      )}
    </>
  );
}
