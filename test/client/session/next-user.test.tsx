/**
 * The client cache never shows one user's rows to the next user on the same browser: after a hotel
 * A manager signs out and a hotel B manager signs in, the user list shows nothing until B's own
 * answer arrives, and then only B's rows (the cache was reset when A's session ended).
 */
import { act, waitFor } from '@testing-library/react';
import { http } from 'msw';

import type { DataOf } from '../../../src/contract';
import { signIn, user } from '../testing/app';
import { api, loginData, ok } from '../testing/handlers';
import { paged } from '../testing/handlers/sys-common';
import { alice, userHandlers } from '../testing/handlers/user';
import { findRow } from '../testing/list-screen';
import { renderApp, screen } from '../testing/render';
import { createRequestLog } from '../testing/request-log';
import { server } from '../testing/server';

jest.setTimeout(120_000);

type UserRow = DataOf<'/sys/user/inquire'>['records'][number];

const MANAGERS = {
  'manager-a': { token: 'token-hotel-a', nickName: 'A店经理', staff: { ...alice, id: 31, userName: 'a-frontdesk', orgId: 3, orgName: 'A店' } },
  'manager-b': { token: 'token-hotel-b', nickName: 'B店经理', staff: { ...alice, id: 32, userName: 'b-frontdesk', orgId: 5, orgName: 'B店' } },
} as const;
type Manager = keyof typeof MANAGERS;

it('shows the next user none of the previous user’s rows, not even while their own list loads', async () => {
  let releaseB: () => void = () => undefined;
  const bMayAnswer = new Promise<void>((resolve) => (releaseB = resolve));
  const askedBy: string[] = [];
  server.use(...userHandlers(createRequestLog()));
  server.use(
    http.post(api('/sys/user/verify'), async ({ request }) => {
      const { userName } = (await request.json()) as { userName: Manager };
      const manager = MANAGERS[userName];
      return ok({ ...loginData(), token: manager.token, userName, nickName: manager.nickName }, '登录成功');
    }),
    http.post(api('/sys/user/inquire'), async ({ request }) => {
      const token = request.headers.get('authorization')?.replace('Bearer ', '');
      const manager = Object.values(MANAGERS).find((candidate) => candidate.token === token);
      askedBy.push(manager?.nickName ?? 'nobody');
      if (manager === MANAGERS['manager-b']) await bMayAnswer;
      const rows: UserRow[] = manager ? [manager.staff] : [];
      return ok(paged(rows));
    }),
  );

  const { router } = await renderApp({ path: '/sys/verify' });
  await signIn('manager-a');
  await screen.findByText('A店经理');
  await act(() => router.navigate('/sys/user'));
  await findRow('a-frontdesk');

  await user.click(screen.getByText('A店经理'));
  await user.click(await screen.findByText('退出登录'));
  await signIn('manager-b');
  await screen.findByText('B店经理');
  await act(() => router.navigate('/sys/user'));

  // B's list is asked for with B's token and held: nothing of A's may show meanwhile.
  await waitFor(() => expect(askedBy).toContain('B店经理'));
  expect(screen.queryByText('a-frontdesk')).toBeNull();
  expect(screen.queryByText('A店')).toBeNull();

  releaseB();
  await findRow('b-frontdesk');
  expect(screen.queryByText('a-frontdesk')).toBeNull();
  expect(askedBy).toEqual(['A店经理', 'B店经理']);
});
