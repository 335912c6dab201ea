/** msw fixtures for sys/user: two users, the role choices, the password reset. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { crudHandlers, menuHandlers } from './list-crud';
import { stateEntries } from './sys-common';

type UserRow = DataOf<'/sys/user/inquire'>['records'][number];
type RoleChoice = DataOf<'/sys/user/role/choices'>[number];

export const USER_MENU_ID = 3;

const user = (id: number, userName: string, state: number, orgId: number | null = null, orgName: string | null = null): UserRow => ({
  id,
  userName,
  nickName: `${userName}-昵称`,
  orgId,
  orgName,
  state,
  roleId: 2,
  roleName: '前台',
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  version: 4,
});

// Their units are those of the organisation fixtures (handlers/org.ts).
export const alice = user(21, 'alice', 1, 3, '上海店');
export const bob = user(22, 'bob', 0, 5, '杭州店');

const role = (id: number, name: string): RoleChoice => ({ id, name });

export function userHandlers(log: RequestLog) {
  return [
    ...menuHandlers({ [USER_MENU_ID]: stateEntries }, log),
    ...crudHandlers(log, { base: '/sys/user', records: [alice, bob], created: user(23, 'carol', 1), edited: alice, savedMsg: '用户已修改' }),
    http.post(api('/sys/user/role/choices'), async ({ request }) => {
      await log.record(request);
      return ok([role(2, '前台'), role(5, '客房')]);
    }),
    // The screen's 可选单位 holds no unit here: user-org.test serves the organisation fixtures.
    http.get(api('/sys/user/org/tree'), async ({ request }) => {
      await log.record(request);
      return ok([]);
    }),
    http.post(api('/sys/user/batch/state'), async ({ request }) => {
      const { ids, state } = (await log.record(request)) as { ids: number[]; state: number };
      return ok({ count: ids.length }, `已${state === 1 ? '启用' : '禁用'} ${ids.length} 个用户`);
    }),
    http.post(api('/sys/user/password/reset'), async ({ request }) => {
      await log.record(request);
      return ok(null, '密码已重置，该用户需重新登录');
    }),
  ];
}
