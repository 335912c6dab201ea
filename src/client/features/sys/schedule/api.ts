/**
 * Schedule calls (docs/api/schedule.md). A manual run changes the schedule's last run and adds a log
 * line, so it refreshes both lists.
 */
import { useGranted } from '../../../components/list-screen';
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const scheduleApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireSchedules: postQuery(build, '/sys/schedule/inquire', { providesTags: ['Schedule'] }),
    createSchedule: postMutation(build, '/sys/schedule/creation', { invalidatesTags: ['Schedule'] }),
    editSchedule: postMutation(build, '/sys/schedule/edit', { invalidatesTags: ['Schedule'] }),
    runSchedule: postMutation(build, '/sys/schedule/run', { invalidatesTags: ['Schedule', 'ScheduleLog'] }),
    inquireScheduleLog: postQuery(build, '/sys/schedule/log', { providesTags: ['ScheduleLog'] }),
    scheduleTasks: postQuery(build, '/sys/schedule/tasks'),
    // The preview shows a refused cron under the input itself (cron-preview.tsx).
    previewCron: postQuery(build, '/sys/schedule/preview', { extraOptions: { inlineRefusals: true } }),
  }),
});

export const {
  useInquireSchedulesQuery,
  useCreateScheduleMutation,
  useEditScheduleMutation,
  useRunScheduleMutation,
  useInquireScheduleLogQuery,
  useScheduleTasksQuery,
  usePreviewCronQuery,
} = scheduleApi;

/** The task registry (labels and parameters), asked only of a role holding 任务类型: else tasks show by code. */
export const useTaskRegistry = () => useScheduleTasksQuery(undefined, { skip: !useGranted('sys/schedule', 'api_tasks') });
