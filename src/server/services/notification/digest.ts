/**
 * Digests: while a channel is throttled (its allowance spent, or the vendor answered its rate-limit
 * error), the messages waiting for it are not dropped and not queued for an hour; they are merged
 * into one digest message (`N 条告警：…`), sent when the channel may send again. A merged message is
 * `digested` and points at its digest, so none is lost. Each channel has at most one open (queued)
 * digest, which gathers everything waiting; all of it happens under the channel's rate lock.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/dialect';
import { underChannelLock, pauseSends } from './rate-limit';
import type { MessageRow } from './outbox';

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

/** A digest names this many of its messages; the rest are counted. */
const DIGEST_LISTED = 5;
/** The webhook's digest document lists this many of them. */
const DIGEST_ITEMS = 20;

/** The open digest of a channel, made (or taken from the throttled digests among `claimed`) if there is none. */
async function openDigest(trx: Trx, channelId: number, claimedDigests: MessageRow[], claimer: string, freeAt: number, now: number): Promise<number> {
  const open = await trx.selectFrom('notifyMessage').select('id').where('channelId', '=', channelId).where('kind', '=', 'digest').where('state', '=', 'queued').executeTakeFirst();
  // Taken only while still queued: a digest another instance claims meanwhile is no longer open
  // (its content may be read already), and this row lock keeps it from being claimed until commit.
  const kept =
    open && (await trx.updateTable('notifyMessage').set({ nextAttemptAt: freeAt }).where('id', '=', open.id).where('state', '=', 'queued').returning('id').executeTakeFirst());
  if (kept) return kept.id;
  const reopened = claimedDigests.shift();
  if (reopened) {
    await trx
      .updateTable('notifyMessage')
      .set({ state: 'queued', nextAttemptAt: freeAt })
      .where('id', '=', reopened.id)
      .where('state', '=', 'sending')
      .where('claimedBy', '=', claimer)
      .execute();
    return reopened.id;
  }
  const created = await trx
    .insertInto('notifyMessage')
    .values({ channelId, alarmId: null, kind: 'digest', title: '', body: '', state: 'queued', nextAttemptAt: freeAt, createdAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

export interface Throttle {
  /** When the channel may send again. */
  freeAt: number;
  /** The vendor answered its rate-limit error: no sends before freeAt, for every instance. */
  vendorPause?: boolean;
}

/**
 * Merges into the channel's open digest every message waiting for the channel: `claimed` (this
 * instance's, untried in this round) and every queued one. A claimed digest that met the throttle
 * becomes the open digest again, or, if another is open, hands it its messages. Answers the digest's id.
 */
export function foldIntoDigest(db: Db, dialect: Dialect, channelId: number, claimed: readonly MessageRow[], claimer: string, throttle: Throttle, now: number): Promise<number> {
  return underChannelLock(db, dialect, channelId, async (trx, state) => {
    if (throttle.vendorPause) await pauseSends(trx, channelId, state, throttle.freeAt);
    const claimedDigests = claimed.filter((message) => message.kind === 'digest');
    const digestId = await openDigest(trx, channelId, claimedDigests, claimer, throttle.freeAt, now);
    for (const merged of claimedDigests) {
      await trx.updateTable('notifyMessage').set({ digestId }).where('digestId', '=', merged.id).execute();
      await trx.updateTable('notifyMessage').set({ state: 'digested', digestId }).where('id', '=', merged.id).where('claimedBy', '=', claimer).execute();
    }
    const claimedIds = claimed.filter((message) => message.kind !== 'digest').map((message) => message.id);
    await trx
      .updateTable('notifyMessage')
      .set({ state: 'digested', digestId })
      .where('channelId', '=', channelId)
      .where('kind', '<>', 'digest')
      .where((eb) =>
        eb.or([eb('state', '=', 'queued'), ...(claimedIds.length > 0 ? [eb.and([eb('state', '=', 'sending'), eb('claimedBy', '=', claimer), eb('id', 'in', claimedIds)])] : [])]),
      )
      .execute();
    return digestId;
  });
}

export interface DigestContent {
  count: number;
  title: string;
  body: string;
  payload: { count: number; items: Array<{ id: number; alarmId: number | null; kind: string; title: string }> };
}

/** What a digest says: how many messages it carries and the first of them (a digest of one is that message). */
export async function digestContent(db: Db, digestId: number): Promise<DigestContent> {
  const counted = await db
    .selectFrom('notifyMessage')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('digestId', '=', digestId)
    .executeTakeFirstOrThrow();
  const count = Number(counted.n);
  const items = await db
    .selectFrom('notifyMessage')
    .select(['id', 'alarmId', 'kind', 'title', 'body'])
    .where('digestId', '=', digestId)
    .orderBy('id')
    .limit(DIGEST_ITEMS)
    .execute();
  const payload = { count, items: items.map(({ id, alarmId, kind, title }) => ({ id, alarmId, kind, title })) };
  if (count === 1) return { count, title: items[0].title, body: items[0].body, payload };
  const listed = items.slice(0, DIGEST_LISTED);
  const more = count - listed.length;
  return {
    count,
    title: `${count} 条告警：${listed.map((item) => item.title).join('；')}${more > 0 ? '…' : ''}`,
    body: [`渠道限流期间合并发送的 ${count} 条通知：`, ...listed.map((item) => `- ${item.title}`), ...(more > 0 ? [`- ……另有 ${more} 条，详见通知记录`] : [])].join('\n'),
    payload,
  };
}
