/** The channels a rule may name, as select options and as a name lookup for the list. */
import type { SelectOption } from '../../../components/list-screen';
import { useRuleChannelsQuery } from './api';

/** A hotel has a handful of channels: one page holds them. */
const CHANNELS_PAGE = { size: 100, current: 1, params: {} };

export function useChannelOptions(): SelectOption[] {
  const { data } = useRuleChannelsQuery(CHANNELS_PAGE);
  return (data?.records ?? []).map((channel) => ({ value: channel.id, label: channel.name }));
}

export function useChannelNames(): (ids: readonly number[]) => string {
  const options = useChannelOptions();
  const names = new Map(options.map((option) => [option.value, option.label]));
  return (ids) => ids.map((id) => names.get(id) ?? `#${id}`).join('、');
}
