/** hotel/alarm: a gateway's alarm unfolds to the devices unreachable behind it, read on unfolding. */
import { waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import type { DataOf } from '../../../src/contract';
import { api, ok } from '../testing/handlers';
import { activeAlarm, alarmHandlers } from '../testing/handlers/alarm';
import { findRow, openScreen, user } from '../testing/list-screen';
import { screen } from '../testing/render';
import { createRequestLog, type RequestLog } from '../testing/request-log';
import { server } from '../testing/server';

jest.setTimeout(120_000);

type AlarmRow = DataOf<'/hotel/alarm/inquire'>['records'][number];

const gatewayAlarm: AlarmRow = { ...activeAlarm, id: 80, deviceId: 50, deviceName: '8F 网关', deviceSn: 'GW-8F', symptomCount: 2 };
const symptoms: AlarmRow[] = [51, 52].map((deviceId) => ({
  ...activeAlarm,
  id: deviceId + 100,
  deviceId,
  deviceName: `08${deviceId} 门锁`,
  deviceSn: `LOCK-08${deviceId}`,
  message: '所属网关离线，设备不可达',
  causeId: gatewayAlarm.id,
}));

let log: RequestLog;

beforeEach(() => {
  log = createRequestLog();
  // The first handler of a path answers: this list before the fixtures' own.
  server.use(
    http.post(api('/hotel/alarm/inquire'), async ({ request }) => {
      const { size, current, params } = (await log.record(request)) as { size: number; current: number; params?: { causeId?: number } };
      const records = params?.causeId === gatewayAlarm.id ? symptoms : [gatewayAlarm, activeAlarm];
      return ok({ records, current, size, total: records.length });
    }),
    ...alarmHandlers(log),
  );
});

describe('hotel/alarm symptoms', () => {
  it('shows a cause with its symptom count and unfolds its symptoms; an alarm without symptoms does not unfold', async () => {
    await openScreen('/hotel/alarm', '8F 网关（GW-8F），2 台设备不可达');
    const cause = await findRow('8F 网关（GW-8F），2 台设备不可达');
    // The shell's alarm badge reads the same endpoint, sorted; the screen's own reads are not.
    const screenReads = () => log.sent('/hotel/alarm/inquire').filter((body) => (body as { sort?: unknown }).sort === undefined);
    expect(screenReads()).toHaveLength(1);
    const plain = await findRow('101 门锁（LOCK-0101）');
    // antd keeps a hidden placeholder where a row cannot unfold.
    expect(within(plain).getByRole('button', { name: /展开/ })).toHaveClass('ant-table-row-expand-icon-spaced');
    expect(within(cause).getByRole('button', { name: /展开/ })).not.toHaveClass('ant-table-row-expand-icon-spaced');

    await user.click(within(cause).getByRole('button', { name: /展开/ }));
    const unfolded = await screen.findByTestId(`alarm-symptoms-${gatewayAlarm.id}`);
    expect(await within(unfolded).findByText('0851 门锁（LOCK-0851）')).toBeInTheDocument();
    expect(within(unfolded).getByText('0852 门锁（LOCK-0852）')).toBeInTheDocument();
    expect(within(unfolded).getAllByText('不可达')).toHaveLength(2);
    await waitFor(() => expect(screenReads().at(-1)).toEqual({ current: 1, size: 50, params: { causeId: gatewayAlarm.id } }));
  });
});
