import type { DataOf } from '../../../../contract';

/** One role as the list answers it; the dialogs take the row they were opened from. */
export type RoleRow = DataOf<'/sys/role/inquire'>['records'][number];
