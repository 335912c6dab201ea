/**
 * Reads of the outbox as 通知记录 shows it: newest first, with each message's channel. A message is
 * hotel data through its alarm's device: a scoped caller sees the messages about alarms of devices
 * in scope; digests and test messages (about no one alarm, or several hotels') only scope all does.
 */
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { BodyOf } from '../../../../contract';
import type { MessageRecord } from '../../../../contract/monitor/message';
import type { Database } from '../../../db/schema';
import { defaultOrder } from '../../../lib/list-query';
import { inScope, type DataScope } from '../../../lib/data-scope';

type Db = Kysely<Database>;
type Filters = NonNullable<BodyOf<'/monitor/message/inquire'>['params']>;
export type MessageAnswer = Static<typeof MessageRecord>;

/** Newest first: ids grow with the time a message was queued. */
export const NEWEST_MESSAGES = defaultOrder(['id', 'm.id', 'desc']);

const messageColumns = [
  'm.id',
  'm.channelId',
  'c.name as channelName',
  'c.type as channelType',
  'm.alarmId',
  'm.kind',
  'm.title',
  'm.body',
  'm.state',
  'm.attempts',
  'm.nextAttemptAt',
  'm.vendorStatus',
  'm.vendorAnswer',
  'm.lastError',
  'm.createdAt',
  'm.sentAt',
  'm.digestId',
] as const;

const withChannels = (db: Db) => db.selectFrom('notifyMessage as m').innerJoin('notifyChannel as c', 'c.id', 'm.channelId');

/** The messages of the scope: those whose alarm's device is in scope. */
export const messagesInScope = (db: Db, scope: DataScope) =>
  withChannels(db).$if(scope.kind !== 'all', (query) =>
    query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('hotelAlarm as sa')
          .innerJoin('hotelDevice as sd', 'sd.id', 'sa.deviceId')
          .select('sa.id')
          .whereRef('sa.id', '=', 'm.alarmId')
          .$call(inScope(scope, { org: 'sd.orgId', self: 'sd.createdBy' })),
      ),
    ),
  );

/** Each filter leads an index of notify_message (channel, state, time, alarm, digest). */
export function filteredMessages(db: Db, scope: DataScope, filters: Filters) {
  let query = messagesInScope(db, scope);
  if (filters.channelId !== undefined) query = query.where('m.channelId', '=', filters.channelId);
  if (filters.state !== undefined) query = query.where('m.state', '=', filters.state);
  if (filters.kind !== undefined) query = query.where('m.kind', '=', filters.kind);
  if (filters.alarmId !== undefined) query = query.where('m.alarmId', '=', filters.alarmId);
  if (filters.digestId !== undefined) query = query.where('m.digestId', '=', filters.digestId);
  if (filters.startAt !== undefined) query = query.where('m.createdAt', '>=', filters.startAt);
  if (filters.endAt !== undefined) query = query.where('m.createdAt', '<=', filters.endAt);
  return query;
}

/** The record's columns, a digest's count of the messages it carries among them. */
export const withMessageColumns = (query: ReturnType<typeof withChannels>) =>
  query
    .select([...messageColumns])
    .select((eb) => eb.selectFrom('notifyMessage as d').select(eb.fn.countAll<number>().as('n')).whereRef('d.digestId', '=', 'm.id').as('digestCount'));

export const toMessageRecord = (row: Omit<MessageAnswer, 'digestCount'> & { digestCount: number | string | null }): MessageAnswer => ({
  ...row,
  digestCount: Number(row.digestCount ?? 0),
});

export async function findMessageRecord(db: Db, id: number): Promise<MessageAnswer | undefined> {
  const row = await withMessageColumns(withChannels(db)).where('m.id', '=', id).executeTakeFirst();
  return row && toMessageRecord(row);
}
