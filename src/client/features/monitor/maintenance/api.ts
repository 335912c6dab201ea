/** 维护窗口 calls: the list, add, edit and removal. */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const maintenanceApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireMaintenance: postQuery(build, '/monitor/maintenance/inquire', { providesTags: ['NotifyMaintenance'] }),
    createMaintenance: postMutation(build, '/monitor/maintenance/creation', { invalidatesTags: ['NotifyMaintenance'] }),
    editMaintenance: postMutation(build, '/monitor/maintenance/edit', { invalidatesTags: ['NotifyMaintenance'] }),
    removeMaintenance: postMutation(build, '/monitor/maintenance/removal', { invalidatesTags: ['NotifyMaintenance'] }),
  }),
});

export const { useInquireMaintenanceQuery, useCreateMaintenanceMutation, useEditMaintenanceMutation, useRemoveMaintenanceMutation } = maintenanceApi;
