/**
 * Online users (issue 9): live sessions and force logout. Ending sessions changes the list and
 * writes the logs, so a force logout refreshes all three.
 */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const onlineApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireOnlineSessions: postQuery(build, '/monitor/online/inquire', { providesTags: ['OnlineSession'] }),
    revokeSession: postMutation(build, '/monitor/online/revoke', { invalidatesTags: ['OnlineSession', 'LoginLog', 'OperationLog'] }),
    revokeUserSessions: postMutation(build, '/monitor/online/revoke/user', { invalidatesTags: ['OnlineSession', 'LoginLog', 'OperationLog'] }),
  }),
});

export const { useInquireOnlineSessionsQuery, useRevokeSessionMutation, useRevokeUserSessionsMutation } = onlineApi;
