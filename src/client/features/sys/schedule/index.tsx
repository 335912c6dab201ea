/**
 * 定时任务 (sys/schedule): schedules on the shared list-screen block. 立即执行 runs one at once,
 * 运行日志 shows its runs; pausing and resuming is the state switch of the edit dialog.
 */
import { Button } from 'antd';
import { useMemo, useState } from 'react';

import { ListScreen, Permitted, savedMsg } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useCreateScheduleMutation, useEditScheduleMutation, useInquireSchedulesQuery, useRunScheduleMutation, useTaskRegistry } from './api';
import { scheduleColumns, scheduleDefaults, scheduleFields, scheduleFilters, scheduleFromForm, type ScheduleRow } from './config';
import { RunLogDrawer } from './run-log-drawer';
import type { TaskInfo } from './task-params';

const NO_TASKS: TaskInfo[] = [];

function RunNowButton({ schedule }: { schedule: ScheduleRow }) {
  const [runSchedule, running] = useRunScheduleMutation();
  const run = async () => {
    const envelope = await runSchedule({ id: schedule.id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };
  return (
    <Button type="link" size="small" loading={running.isLoading} onClick={run}>
      立即执行
    </Button>
  );
}

export default function SysScheduleScreen() {
  const tasks = useTaskRegistry().data ?? NO_TASKS;
  const columns = useMemo(() => scheduleColumns(tasks), [tasks]);
  const fields = useMemo(() => scheduleFields(tasks), [tasks]);
  const fromForm = useMemo(() => scheduleFromForm(tasks), [tasks]);
  const [logOf, setLogOf] = useState<ScheduleRow | null>(null);
  return (
    <>
      <ListScreen
        view="sys/schedule"
        noun="定时任务"
        useInquire={useInquireSchedulesQuery}
        filters={scheduleFilters}
        columns={columns}
        fields={fields}
        createDefaults={scheduleDefaults}
        fromForm={fromForm}
        create={{ useMutation: useCreateScheduleMutation, successMsg: savedMsg }}
        edit={{ useMutation: useEditScheduleMutation, successMsg: savedMsg }}
        exportTo={{ endpoint: '/sys/schedule/export', fileName: '定时任务.xlsx' }}
        rowActions={(schedule) => (
          <>
            <Permitted view="sys/schedule" resource="api_run">
              <RunNowButton schedule={schedule} />
            </Permitted>
            <Permitted view="sys/schedule" resource="api_log">
              <Button type="link" size="small" onClick={() => setLogOf(schedule)}>
                运行日志
              </Button>
            </Permitted>
          </>
        )}
      />
      {logOf && <RunLogDrawer schedule={logOf} onClose={() => setLogOf(null)} />}
    </>
  );
}
