/** hotel/alarm: a floor's alarm (楼层断连) names the floor, not its representative device, and unfolds to the devices gone with it. */
import { http } from 'msw';

import type { DataOf } from '../../../src/contract';
import { api, ok } from '../testing/handlers';
import { activeAlarm, alarmHandlers } from '../testing/handlers/alarm';
import { findRow, openScreen } from '../testing/list-screen';
import { createRequestLog } from '../testing/request-log';
import { server } from '../testing/server';

jest.setTimeout(120_000);

type AlarmRow = DataOf<'/hotel/alarm/inquire'>['records'][number];

const floorAlarm: AlarmRow = {
  ...activeAlarm,
  id: 90,
  deviceId: 61,
  deviceName: '0801 门锁',
  deviceSn: 'LOCK-0801',
  type: 'floor_offline',
  severity: 'critical',
  message: '楼层断连：大部分设备同时离线（6/6 台）',
  locationId: 8,
  locationPath: '主楼 / 8F',
  symptomCount: 6,
};

beforeEach(() => {
  const log = createRequestLog();
  server.use(
    http.post(api('/hotel/alarm/inquire'), async ({ request }) => {
      const { size, current } = (await log.record(request)) as { size: number; current: number };
      return ok({ records: [floorAlarm, activeAlarm], current, size, total: 2 });
    }),
    ...alarmHandlers(log),
  );
});

describe('hotel/alarm location alarms', () => {
  it('shows the floor as the subject with its devices counted, and the type 楼层断连', async () => {
    await openScreen('/hotel/alarm', '主楼 / 8F，6 台设备离线');
    const row = await findRow('主楼 / 8F，6 台设备离线');
    expect(row).toHaveTextContent('楼层断连');
    expect(row).not.toHaveTextContent('LOCK-0801');
    expect(await findRow('101 门锁（LOCK-0101）')).toHaveTextContent('设备离线');
  });
});
