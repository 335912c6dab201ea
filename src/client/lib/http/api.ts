/**
 * The one RTK Query api of the app. Features add their endpoints with `api.injectEndpoints`; the
 * tags let a list reload after a create or an edit.
 */
import { createAction, type Action } from '@reduxjs/toolkit';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { Code, type Envelope } from '../../../contract/constants';
import { httpBaseQuery, isBusinessError, type HttpError, type HttpExtraOptions, type HttpRequest } from './base-query';

export const TAG_TYPES = [
  'User',
  'Role',
  'RoleAuth',
  'RoleUser',
  'Menu',
  'Resource',
  'Dict',
  'MenuDict',
  'Schedule',
  'ScheduleLog',
  'Device',
  'Location',
  'Alarm',
  'DeviceTypeTimeout',
  'Advanced',
  'Panel',
  'Authority',
  'OperationLog',
  'LoginLog',
  'OnlineSession',
] as const;
export type TagType = (typeof TAG_TYPES)[number];

/**
 * Dispatched when the server answers code 401. Declared here, next to the code that raises it; the
 * session slice clears itself on it.
 */
export const sessionExpired = createAction('session/expired');

/** Body code 401: forget the session everywhere, so the guard sends the user to /sys/verify. */
export function forgetSession(dispatch: (action: Action) => unknown): void {
  dispatch(sessionExpired());
  localStorage.clear();
  dispatch(api.util.resetApiState());
}

const reauthBaseQuery: BaseQueryFn<HttpRequest, Envelope<unknown>, HttpError, HttpExtraOptions> = async (request, baseApi, extraOptions) => {
  const result = await httpBaseQuery(request, baseApi, extraOptions);
  if (isBusinessError(result.error) && result.error.status === Code.unauthorized) forgetSession(baseApi.dispatch);
  return result;
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery: reauthBaseQuery,
  tagTypes: TAG_TYPES,
  // Lists change under other staff and under devices and jobs (heartbeats, runs): a screen or
  // dialog that opens shows current data, not what the cache held from its last visit.
  refetchOnMountOrArgChange: true,
  endpoints: () => ({}),
});

export type HttpBaseQuery = typeof reauthBaseQuery;
