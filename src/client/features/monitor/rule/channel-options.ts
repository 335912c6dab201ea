/** The channels a rule may name, as select options and as a name lookup for the list. */
import { useChannelOptions as useChannelChoices } from '../../../components/channel-choices';
import type { SelectOption } from '../../../components/list-screen';

/** The rule screen's channels (its 可选渠道); a role without them sees channel numbers. */
export const useChannelOptions = (): SelectOption[] => useChannelChoices('monitor/rule');

export function useChannelNames(): (ids: readonly number[]) => string {
  const options = useChannelOptions();
  const names = new Map(options.map((option) => [option.value, option.label]));
  return (ids) => ids.map((id) => names.get(id) ?? `#${id}`).join('、');
}
