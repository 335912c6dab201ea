/**
 * A batch of events applied to what the screens hold (docs/client.md, Live console). Device rows
 * are patched in place in every cached device list (`updateQueryData`): a status change moves no
 * row in or out of a list that neither filters nor sorts by status, so the page stays exact
 * without a request. A list that does filter or sort by status, and any other cached read about
 * devices (a device's status drawer), is read again, as are alarm lists, the badge and the 控制台
 * counts (tag invalidation). A `reload` reads all of them again.
 */
import { createAction, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';

import { api, type TagType } from '../../../../lib/http/api';
import type { LiveBatch } from './coalesce';

/** In DevTools: what a flush applied. */
export const eventsApplied = createAction<{ events: number; devices: number; reload: boolean }>('live/eventsApplied');

export type ApiState = { api: ReturnType<typeof api.reducer> };
export type LiveDispatch = ThunkDispatch<ApiState, unknown, UnknownAction>;

/** What the live stream can change: read again on `reload`. */
const LIVE_TAGS: TagType[] = ['Device', 'Alarm', 'Panel'];

interface DeviceRow {
  id: number;
  online: number;
  lastSeenAt: number | null;
  onlineSince: number | null;
  offlineSince: number | null;
}

const isDevicePage = (data: unknown): data is { records: DeviceRow[] } =>
  typeof data === 'object' && data !== null && Array.isArray((data as { records?: unknown }).records) && (data as { records: object[] }).records.every((row) => 'online' in row);

/** Whether a list's rows or their order depend on the status (its filter or its sort). */
function byStatus(args: unknown): boolean {
  const request = args as { params?: { online?: unknown }; sort?: { field?: unknown } } | undefined;
  return request?.params?.online !== undefined || request?.sort?.field === 'online';
}

/** The RTK Query utilities by endpoint name: this folder does not import the device screen's api. */
type Recipe = (draft: unknown) => void;
const patch = api.util.updateQueryData as unknown as (endpoint: string, args: unknown, recipe: Recipe) => UnknownAction;
const endpoints = api.endpoints as unknown as Record<string, { initiate(args: unknown, options: { subscribe: false; forceRefetch: true }): UnknownAction }>;

function patchRows(draft: unknown, devices: LiveBatch['devices']): void {
  for (const row of (draft as { records: DeviceRow[] }).records) {
    const status = devices.get(row.id);
    if (!status) continue;
    row.online = status.online;
    if (status.online === 1) {
      row.onlineSince = status.at;
      row.lastSeenAt = Math.max(row.lastSeenAt ?? 0, status.at);
    } else row.offlineSince = status.at;
  }
}

export function applyBatch(dispatch: LiveDispatch, getState: () => ApiState, batch: LiveBatch): void {
  dispatch(eventsApplied({ events: batch.events, devices: batch.devices.size, reload: batch.reload }));
  if (batch.reload) {
    dispatch(api.util.invalidateTags(LIVE_TAGS));
    return;
  }
  const tags = new Set<TagType>();
  if (batch.alarmsRaised || batch.alarmsChanged) tags.add('Alarm').add('Panel');
  // The list shows each device's latest command.
  if (batch.commands) tags.add('Device');
  if (batch.devices.size > 0) {
    tags.add('Panel');
    if (!tags.has('Device')) {
      const state = getState();
      for (const entry of api.util.selectInvalidatedBy(state, ['Device'])) {
        const data = state.api.queries[entry.queryCacheKey]?.data;
        if (isDevicePage(data) && !byStatus(entry.originalArgs)) dispatch(patch(entry.endpointName, entry.originalArgs, (draft) => patchRows(draft, batch.devices)));
        else void dispatch(endpoints[entry.endpointName].initiate(entry.originalArgs, { subscribe: false, forceRefetch: true }));
      }
    }
  }
  if (tags.size > 0) dispatch(api.util.invalidateTags([...tags]));
}
