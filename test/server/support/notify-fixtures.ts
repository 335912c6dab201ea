/**
 * Fixtures for the notification suites: an app that runs no worker of its own (main.ts starts it,
 * not the app; a test drives a worker of its own, on a clock it moves), channels made through the
 * API, messages queued with the product's enqueue call, and reads of the outbox.
 */
import { loadConfig, type NotifyConfig, type ServerConfig } from '../../../src/server/config';
import { NotificationWorker } from '../../../src/server/services/notification/worker';
import { enqueueNotifications, type NotificationMessage } from '../../../src/server/services/notification';
import { expandAlarmEvents } from '../../../src/server/services/notification/alarm-events';
import type { BodyOf } from '../../../src/contract';
import type { TestApp } from './harness';
import { expectOk } from './sys-fixtures';

export const CONSOLE_URL = 'https://hotel.example.com';

/** Notifications for a suite: NOTIFY=off, local receivers allowed, links to the console. */
export function notifySettings(overrides: Partial<NotifyConfig> = {}): Partial<ServerConfig> {
  return { notify: { ...loadConfig({}).notify, enabled: false, allowPrivateTargets: true, consoleUrl: CONSOLE_URL, ...overrides } };
}

/** A clock a test moves itself. */
export class TestClock {
  constructor(public at = Date.UTC(2025, 0, 6, 2, 0, 0)) {}
  now = (): number => this.at;
  advance(ms: number): void {
    this.at += ms;
  }
}

export function testWorker(t: TestApp, clock: TestClock, instanceId = 'test'): NotificationWorker {
  return new NotificationWorker({
    db: t.database.db,
    dialect: t.database.dialect,
    outbound: t.app.notifications.outbound,
    audit: t.app.audit,
    log: t.app.log,
    config: t.config.notify,
    instanceId,
    clock: clock.now,
  });
}

export async function createChannel(t: TestApp, token: string, body: Omit<BodyOf<'/monitor/channel/creation'>, 'state' | 'remark'> & { state?: number }) {
  return expectOk(await t.call('/monitor/channel/creation', { state: 1, remark: '', ...body }, token));
}

/** An alarm-like message for a channel, numbered so its title is unique. */
export const alarmMessage = (channelId: number, n: number, overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  channelId,
  alarmId: 1000 + n,
  kind: 'raise',
  title: `【严重】设备离线：客房 ${1200 + n} 门锁`,
  body: `- 设备：客房 ${1200 + n} 门锁（LOCK-${n}）\n- 位置：1 号楼 / 12 层 / ${1200 + n}\n- 时间：2025-01-06 10:00:00`,
  link: `/hotel/alarm?id=${1000 + n}`,
  payload: { id: 1000 + n, type: 'offline', severity: 'critical', deviceSn: `LOCK-${n}` },
  ...overrides,
});

export async function enqueue(t: TestApp, messages: NotificationMessage[], clock: TestClock): Promise<void> {
  await t.database.db.transaction().execute((trx) => enqueueNotifications(trx, messages, clock.now()));
}

/** What the worker's rounds do first, alone: every alarm event waiting becomes its messages (queued, not sent). */
export async function expandAll(t: TestApp): Promise<void> {
  while ((await expandAlarmEvents(t.database.db, t.database.dialect)) > 0);
}

export const messagesOf = (t: TestApp, channelId: number) => t.database.db.selectFrom('notifyMessage').selectAll().where('channelId', '=', channelId).orderBy('id').execute();

export const channelRow = (t: TestApp, id: number) => t.database.db.selectFrom('notifyChannel').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
