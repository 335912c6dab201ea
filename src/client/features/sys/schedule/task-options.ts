/** The tasks a schedule can run, as select options labelled in Chinese. */
import type { SelectOption } from '../../../components/list-screen';
import { useTaskRegistry } from './api';

export function useTaskOptions(): SelectOption[] {
  const { data: tasks } = useTaskRegistry();
  return (tasks ?? []).map((task) => ({ value: task.name, label: task.label }));
}
