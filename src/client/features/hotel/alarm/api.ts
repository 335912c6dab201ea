/**
 * Alarm calls: the list, acknowledge and clear (which also change the panel's open-alarm figures
 * and a device's drawer), and the per-device-type inactivity timeouts.
 */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const alarmApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireAlarms: postQuery(build, '/hotel/alarm/inquire', { providesTags: ['Alarm'] }),
    acknowledgeAlarms: postMutation(build, '/hotel/alarm/acknowledge', { invalidatesTags: ['Alarm', 'Panel'] }),
    batchAcknowledgeAlarms: postMutation(build, '/hotel/alarm/batch/acknowledge', { invalidatesTags: ['Alarm', 'Panel'] }),
    clearAlarms: postMutation(build, '/hotel/alarm/clear', { invalidatesTags: ['Alarm', 'Panel'] }),
    deviceTypeTimeouts: postQuery(build, '/hotel/alarm/timeout/inquire', { providesTags: ['DeviceTypeTimeout'] }),
    editDeviceTypeTimeout: postMutation(build, '/hotel/alarm/timeout/edit', { invalidatesTags: ['DeviceTypeTimeout'] }),
  }),
});

export const {
  useInquireAlarmsQuery,
  useAcknowledgeAlarmsMutation,
  useBatchAcknowledgeAlarmsMutation,
  useClearAlarmsMutation,
  useDeviceTypeTimeoutsQuery,
  useEditDeviceTypeTimeoutMutation,
} = alarmApi;
