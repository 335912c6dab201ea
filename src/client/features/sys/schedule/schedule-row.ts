import type { DataOf } from '../../../../contract';

/** One schedule as the list answers it; the drawer and dialogs take the row they were opened from. */
export type ScheduleRow = DataOf<'/sys/schedule/inquire'>['records'][number];
