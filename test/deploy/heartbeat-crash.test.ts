/**
 * Issue 10: the heartbeat's write path when the process dies. Heartbeats of devices already online
 * are coalesced in memory and written every HEARTBEAT_FLUSH_MS; a device coming online is written
 * before its heartbeat is answered. So a SIGKILL (nothing of the process's own runs) loses at most
 * the last interval's last-seen times and never a reported transition. Run for real on the built
 * product, on SQLite and on PostgreSQL; a graceful stop (SIGTERM) writes what it holds back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../support/postgres-database';
import { bearer, post, signIn, startInstance, stopInstance, type Running } from './support';

jest.setTimeout(120_000);
const FLUSH_MS = 1500;

interface DeviceStatus {
  online: number;
  lastSeenAt: number | null;
  transitions: { records: Array<{ online: number; cause: string }> };
}

async function crashScenario(env: Record<string, string>): Promise<void> {
  const first = await startInstance({ ...env, HEARTBEAT_FLUSH_MS: String(FLUSH_MS) });
  let running: Running | null = first;
  try {
    const staff = bearer(await signIn(first.base));
    const create = async (sn: string) => {
      const answer = await post<{ device: { id: number }; deviceKey: string }>(first.base, '/hotel/device/creation', { name: sn, sn, type: 'lock', state: 1, remark: '' }, staff);
      expect(answer.code).toBe(200);
      return answer.data;
    };
    const beat = async (sn: string, key: string) => {
      const answer = await post<{ serverTime: number }>(running!.base, '/hotel/device/heartbeat', { sn }, { 'x-device-key': key });
      expect(answer.code).toBe(200);
      return answer.data.serverTime;
    };
    const steady = await create('CRASH-STEADY');
    const late = await create('CRASH-LATE');

    await beat('CRASH-STEADY', steady.deviceKey);
    // Coalesced, then written by the timer within the interval.
    const flushed = await beat('CRASH-STEADY', steady.deviceKey);
    await new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 2));
    // Held back when the process dies: lost, and it is the only thing lost.
    const held = await beat('CRASH-STEADY', steady.deviceKey);
    // A device coming online just before the crash: answered, so written.
    const cameOnline = await beat('CRASH-LATE', late.deviceKey);
    await stopInstance(first, 'SIGKILL');
    running = null;

    running = await startInstance(env);
    const status = async (id: number) => (await post<DeviceStatus>(running!.base, '/hotel/device/status', { id }, bearer(await signIn(running!.base)))).data;
    const steadyNow = await status(steady.device.id);
    expect(steadyNow.online).toBe(1);
    // The timer's flush landed; the beat held since then is the only thing lost.
    expect(steadyNow.lastSeenAt).toBe(flushed);
    expect(held).toBeGreaterThan(flushed);
    const lateNow = await status(late.device.id);
    expect(lateNow).toMatchObject({ online: 1, lastSeenAt: cameOnline });
    expect(lateNow.transitions.records).toEqual([expect.objectContaining({ online: 1, cause: 'heartbeat' })]);

    // A graceful stop (SIGTERM, as in a rolling restart) writes what it holds back.
    const beforeStop = await beat('CRASH-STEADY', steady.deviceKey);
    await stopInstance(running);
    running = await startInstance(env);
    expect((await status(steady.device.id)).lastSeenAt).toBe(beforeStop);
  } finally {
    if (running) await stopInstance(running);
  }
}

it('SQLite: a crash loses only the last interval of last-seen times, never a device coming online; a stop loses none', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-crash-'));
  try {
    await crashScenario({ DATA_DIR: dir });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('PostgreSQL: a crash loses only the last interval of last-seen times, never a device coming online; a stop loses none', async () => {
  const database = await createPostgresDatabase('hotel_crash');
  try {
    await crashScenario({ DATABASE_URL: database.url });
  } finally {
    await database.drop();
  }
});
