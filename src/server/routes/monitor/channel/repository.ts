/** Reads of notification channels as answers show them: settings masked, with their dead letters counted. */
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Database, Row } from '../../../db/schema';
import type { ChannelRecord, ChannelType } from '../../../../contract/monitor/channel';
import { parseSettings, settingsView } from '../../../services/notification/channel-config';

type Db = Kysely<Database>;
export type ChannelAnswer = Static<typeof ChannelRecord>;

/** The channels with how many of their messages are dead letters (an index range each). */
export const channelsWithFailures = (db: Db) =>
  db
    .selectFrom('notifyChannel as c')
    .selectAll('c')
    .select((eb) =>
      eb.selectFrom('notifyMessage as m').select(eb.fn.countAll<number>().as('n')).whereRef('m.channelId', '=', 'c.id').where('m.state', '=', 'failed').as('failedCount'),
    );

/** Only masks of the credentials leave the server. */
export const toChannelRecord = (row: Row<'notifyChannel'> & { failedCount?: number | string | null }): ChannelAnswer => ({
  id: row.id,
  name: row.name,
  type: row.type,
  config: settingsView(row.type as ChannelType, parseSettings(row.config)),
  state: row.state,
  remark: row.remark,
  health: row.health,
  healthReason: row.healthReason,
  healthAt: row.healthAt,
  failedCount: Number(row.failedCount ?? 0),
  version: row.version,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export async function findChannelRecord(db: Db, id: number): Promise<ChannelAnswer | undefined> {
  const row = await channelsWithFailures(db).where('c.id', '=', id).executeTakeFirst();
  return row && toChannelRecord(row);
}
