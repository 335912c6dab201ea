/**
 * The one RTK Query api of the app. Features add their endpoints with `api.injectEndpoints`; the
 * tags let a list reload after a create or an edit. Every call goes through the base query, and so
 * through the one authorised request path (authorized-request.ts): a body code 401 ends the session
 * there.
 */
import { createApi } from '@reduxjs/toolkit/query/react';

import { httpBaseQuery } from './base-query';

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
  'NotifyChannel',
  'NotifyMessage',
  'NotifyRule',
  'NotifyMaintenance',
  'Org',
  'NotifyTemplate',
] as const;
export type TagType = (typeof TAG_TYPES)[number];

export const api = createApi({
  reducerPath: 'api',
  baseQuery: httpBaseQuery,
  tagTypes: TAG_TYPES,
  // Lists change under other staff and under devices and jobs (heartbeats, runs): a screen or
  // dialog that opens shows current data, not what the cache held from its last visit.
  refetchOnMountOrArgChange: true,
  endpoints: () => ({}),
});

export type HttpBaseQuery = typeof httpBaseQuery;
