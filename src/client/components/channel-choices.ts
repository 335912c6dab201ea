/**
 * The notification channels a screen picks from or names (通知规则's channels and escalation steps,
 * 通知记录's 渠道 filter), read at the screen's own path under its 可选渠道 grant (picker-sources.ts):
 * id, name, type and state, never a channel's configuration. A role without the grant is offered no
 * channel rather than refused on opening the screen.
 */
import { api } from '../lib/http/api';
import { keyedGetQuery } from '../lib/http/endpoints';
import type { SelectOption } from './list-screen';
import { usePickerSource, type ChannelChoicesKey, type PickerView } from './picker-sources';

const channelChoicesApi = api.injectEndpoints({
  endpoints: (build) => ({
    channelChoices: keyedGetQuery<ChannelChoicesKey>(build, ['NotifyChannel']),
  }),
});

/** The screen's channels as select options. */
export function useChannelOptions(view: PickerView<'channel'>): SelectOption[] {
  const { key, granted } = usePickerSource('channel', view);
  const { data } = channelChoicesApi.useChannelChoicesQuery(key, { skip: !granted });
  return (data ?? []).map((channel) => ({ value: channel.id, label: channel.name }));
}
