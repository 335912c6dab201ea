/** msw fixtures for sys/dict: entries, the bindable resources and the bind/unbind calls. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { crudHandlers, DICT_MENU, menuHandlers } from './list-crud';
import { paged, stateEntries } from './sys-common';

type DictRow = DataOf<'/sys/dict/inquire'>['records'][number];
type BindableRow = DataOf<'/sys/resource/inquires'>['records'][number];

export const lockType: DictRow = {
  id: 7,
  code: 'device_type',
  label: '门锁',
  value: 'lock',
  sort: 1,
  state: 1,
  remark: '',
  version: 2,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

export const bindable: BindableRow[] = [
  { id: 301, menuId: 11, menuName: '设备管理', name: '设备类型', type: 'field_type', bound: 0 },
  { id: 302, menuId: 3, menuName: '用户管理', name: '用户状态', type: 'field_state', bound: 1 },
];

export function dictHandlers(log: RequestLog) {
  return [
    ...menuHandlers({ [DICT_MENU.id]: stateEntries }, log),
    ...crudHandlers(log, { base: '/sys/dict', records: [lockType], created: lockType, edited: lockType, savedMsg: '字典已保存' }),
    http.post(api('/sys/resource/inquires'), async ({ request }) => {
      await log.record(request);
      return ok(paged(bindable));
    }),
    http.post(api('/sys/dict/bind'), async ({ request }) => {
      await log.record(request);
      return ok(null, '已绑定');
    }),
    http.post(api('/sys/dict/unbind'), async ({ request }) => {
      await log.record(request);
      return ok(null, '已解绑');
    }),
  ];
}
