/** msw fixtures for hotel/advanced: one integration setting with a masked secret, initialisation. */
import { http } from 'msw';

import type { DataOf } from '../../../../src/contract';
import { api, ok } from '../handlers';
import type { RequestLog } from '../request-log';
import { crudHandlers, menuHandlers } from './list-crud';
import { stateEntries } from './sys-common';

type AdvancedRow = DataOf<'/hotel/advanced/inquire'>['records'][number];

export const ADVANCED_MENU_ID = 12;

export const jdSetting: AdvancedRow = {
  id: 51,
  name: '京东对接',
  endpointUrl: 'https://open.example.com/api',
  appKey: 'key-123',
  appSecretMasked: '******3f9a',
  state: 1,
  remark: '',
  initialisedAt: null,
  orgId: 2,
  version: 2,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

export function advancedHandlers(log: RequestLog) {
  return [
    ...menuHandlers({ [ADVANCED_MENU_ID]: stateEntries }, log),
    ...crudHandlers(log, { base: '/hotel/advanced', records: [jdSetting], created: jdSetting, edited: jdSetting }),
    http.post(api('/hotel/advanced/jd/edit'), async ({ request }) => {
      await log.record(request);
      return ok({ ...jdSetting, initialisedAt: 1_704_067_200_000 }, '已初始化');
    }),
  ];
}
