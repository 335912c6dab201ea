/** The channels a rule may name, as select options and as a name lookup for the list. */
import { useGranted, type SelectOption } from '../../../components/list-screen';
import { useRuleChannelsQuery } from './api';

/** A hotel has a handful of channels: one page holds them. */
const CHANNELS_PAGE = { size: 100, current: 1, params: {} };

/** The screen whose list the channels come from. */
const CHANNEL_VIEW = 'monitor/channel';

export function useChannelOptions(): SelectOption[] {
  // The channel list is 通知渠道's resource: a role without it is offered no channel (and sees
  // channel numbers) rather than refused on opening the screen.
  const mayReadChannels = useGranted(CHANNEL_VIEW, 'api_inquire');
  const { data } = useRuleChannelsQuery(CHANNELS_PAGE, { skip: !mayReadChannels });
  return (data?.records ?? []).map((channel) => ({ value: channel.id, label: channel.name }));
}

export function useChannelNames(): (ids: readonly number[]) => string {
  const options = useChannelOptions();
  const names = new Map(options.map((option) => [option.value, option.label]));
  return (ids) => ids.map((id) => names.get(id) ?? `#${id}`).join('、');
}
