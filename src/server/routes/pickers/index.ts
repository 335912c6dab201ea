/**
 * The screens' pickers (contract/pickers.ts): each screen reads the unit tree, the location tree or
 * the channel list it picks from at a path of its own, granted as one of its resources, and gets
 * what the owning screen's read would answer the same caller.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PICKERS, type ChannelChoice, type PickerKey, type PickerKind } from '../../../contract/pickers';
import { currentScope, defineRoute, ok } from '../../lib/route';
import type { DataScope } from '../../lib/data-scope';
import { locationTree, orgTree } from '../../services/scoped-trees';

/** Channels are configuration, alike for every caller: a choice names one, its settings stay with 通知渠道. */
const channelChoices = (db: Kysely<Database>): Promise<ChannelChoice[]> => db.selectFrom('notifyChannel').select(['id', 'name', 'type', 'state']).orderBy('id').execute();

const READS: Record<PickerKind, (db: Kysely<Database>, scope: DataScope) => Promise<unknown[]>> = {
  org: orgTree,
  location: locationTree,
  channel: channelChoices,
};

export function pickerRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  for (const [key, kind] of Object.entries(PICKERS) as [PickerKey, PickerKind][]) {
    const read = READS[kind];
    // Every picker answers an array of its kind's records; the contract's answer schema shapes each on the way out.
    defineRoute(app, key, 'resource', async (request) => ok((await read(app.db, currentScope(request))) as never));
  }
  done();
}
