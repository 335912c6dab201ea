/** 批量启用 / 批量禁用: the two batch actions of a list whose rows have a 启用/禁用 state. */
import type { BatchAction } from './types';

export interface StateBatchBody {
  ids: number[];
  state: number;
}

/** `what` names the rows (个用户, 台设备); `disableNote` says what disabling also does. */
export function stateBatchActions(what: string, disableNote = ''): BatchAction<StateBatchBody>[] {
  return [
    { label: '批量启用', confirm: (count) => `确定启用所选的 ${count} ${what}？`, body: (ids) => ({ ids, state: 1 }) },
    { label: '批量禁用', danger: true, confirm: (count) => `${disableNote}确定禁用所选的 ${count} ${what}？`, body: (ids) => ({ ids, state: 0 }) },
  ];
}
