/**
 * Device calls (docs/api/hotel.md). Creation and key reset answer the device key, once. A device's history is
 * its records in the operation log (its status changes and what operators did to it).
 */
import { api } from '../../../lib/http/api';
import { getQuery, postMutation, postQuery } from '../../../lib/http/endpoints';

export const deviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireDevices: postQuery(build, '/hotel/device/inquire', { providesTags: ['Device'] }),
    createDevice: postMutation(build, '/hotel/device/creation', { invalidatesTags: ['Device'] }),
    editDevice: postMutation(build, '/hotel/device/edit', { invalidatesTags: ['Device'] }),
    batchDeviceState: postMutation(build, '/hotel/device/batch/state', { invalidatesTags: ['Device'] }),
    resetDeviceKey: postMutation(build, '/hotel/device/key/reset', { invalidatesTags: ['Device'] }),
    // Its open alarms are cleared with it, so the alarm list and the panel change too.
    removeDevice: postMutation(build, '/hotel/device/removal', { invalidatesTags: ['Device', 'Alarm', 'Panel'] }),
    rebootDevice: postMutation(build, '/hotel/device/command/reboot', { invalidatesTags: ['Device'] }),
    deviceHistory: postQuery(build, '/monitor/operation/inquire', { providesTags: ['OperationLog'] }),
    deviceStatus: postQuery(build, '/hotel/device/status', { providesTags: ['Device', 'Alarm'] }),
    // What the server can do (remote commands need MQTT); fixed for the server's life, read once.
    capabilities: getQuery(build, 'GET /sys/capabilities'),
  }),
});

export const {
  useInquireDevicesQuery,
  useCreateDeviceMutation,
  useEditDeviceMutation,
  useBatchDeviceStateMutation,
  useResetDeviceKeyMutation,
  useRemoveDeviceMutation,
  useRebootDeviceMutation,
  useDeviceHistoryQuery,
  useDeviceStatusQuery,
  useCapabilitiesQuery,
} = deviceApi;
