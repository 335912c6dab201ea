/** The tasks a schedule can run, as select options labelled in Chinese. */
import type { SelectOption } from '../../../components/list-screen';
import { useScheduleTasksQuery } from './api';

export function useTaskOptions(): SelectOption[] {
  const { data: tasks } = useScheduleTasksQuery();
  return (tasks ?? []).map((task) => ({ value: task.name, label: task.label }));
}
