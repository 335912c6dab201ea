/**
 * What each kind of audit target is: how to read one record (for an edit's before and after values
 * and for a readable label) and which contract schema describes it (for redaction and field
 * titles). A route names only its target type in the contract; everything else is here, once.
 */
import type { Kysely } from 'kysely';
import type { TSchema } from '@sinclair/typebox';
import type { Database } from '../../db/schema';
import type { AuditTargetType } from '../../../contract/endpoint';
import { UserRecord } from '../../../contract/sys/user';
import { RoleRecord } from '../../../contract/sys/role';
import { MenuRecord } from '../../../contract/sys/menu';
import { ResourceRecord } from '../../../contract/sys/resource';
import { DictRecord } from '../../../contract/sys/dict';
import { ScheduleRecord } from '../../../contract/sys/schedule';
import { DeviceRecord } from '../../../contract/hotel/device';
import { AdvancedRecord } from '../../../contract/hotel/advanced';
import { LocationRecord } from '../../../contract/hotel/location';
import { AlarmRecord } from '../../../contract/hotel/alarm';
import { OnlineRecord } from '../../../contract/monitor/online';
import { ChannelRecord } from '../../../contract/monitor/channel';
import { MessageRecord } from '../../../contract/monitor/message';
import { findUser } from '../../routes/sys/user/repository';
import { findRoleRecord } from '../../routes/sys/role/repository';
import { findMenu } from '../../routes/sys/menu/repository';
import { findDict } from '../../routes/sys/dict/repository';
import { maskSecret } from '../../lib/mask-secret';
import { devicesJoinedToPresence } from '../../routes/hotel/device/presence';
import { findChannelRecord } from '../../routes/monitor/channel/repository';
import { findMessageRecord } from '../../routes/monitor/message/repository';

type Db = Kysely<Database>;
type Loaded = Record<string, unknown>;

export interface AuditTarget {
  schema: TSchema;
  load(db: Db, id: number): Promise<Loaded | undefined>;
  label(record: Loaded): string;
}

/** The repositories answer 404 for a missing record; here a missing record is simply not there. */
const orNothing = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
  try {
    return await read();
  } catch {
    return undefined;
  }
};

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

export const auditTargets: Record<AuditTargetType, AuditTarget> = {
  user: {
    schema: UserRecord,
    load: (db, id) => orNothing(() => findUser(db, id)),
    label: (r) => text(r.userName),
  },
  role: {
    schema: RoleRecord,
    load: (db, id) => orNothing(() => findRoleRecord(db, id)),
    label: (r) => text(r.name),
  },
  menu: {
    schema: MenuRecord,
    load: (db, id) => orNothing(() => findMenu(db, id)),
    label: (r) => text(r.name),
  },
  resource: {
    schema: ResourceRecord,
    load: (db, id) => db.selectFrom('sysResource').select(['id', 'menuId', 'name', 'type', 'path', 'remark', 'version']).where('id', '=', id).executeTakeFirst(),
    label: (r) => text(r.name),
  },
  dict: {
    schema: DictRecord,
    load: (db, id) => orNothing(() => findDict(db, id)),
    label: (r) => `${text(r.code)}:${text(r.label)}`,
  },
  schedule: {
    schema: ScheduleRecord,
    load: async (db, id) => {
      const row = await db.selectFrom('sysSchedule').select(['id', 'name', 'cron', 'task', 'params', 'state', 'remark', 'version']).where('id', '=', id).executeTakeFirst();
      return row && { ...row, params: orParsed(row.params) };
    },
    label: (r) => text(r.name),
  },
  device: {
    schema: DeviceRecord,
    // Never the key hash: only the fields the contract's device record has.
    load: (db, id) =>
      devicesJoinedToPresence(db)
        .select(['hotelDevice.id', 'name', 'sn', 'type', 'roomNo', 'state', 'online', 'remark', 'version'])
        .where('hotelDevice.id', '=', id)
        .executeTakeFirst(),
    label: (r) => `${text(r.name)}（${text(r.sn)}）`,
  },
  advanced: {
    schema: AdvancedRecord,
    load: async (db, id) => {
      const row = await db.selectFrom('hotelAdvanced').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const { appSecret, ...rest } = row;
      return { ...rest, appSecretMasked: maskSecret(appSecret) };
    },
    label: (r) => text(r.name),
  },
  location: {
    schema: LocationRecord,
    load: (db, id) => db.selectFrom('hotelLocation').select(['id', 'parentId', 'kind', 'name', 'sort', 'version']).where('id', '=', id).executeTakeFirst(),
    label: (r) => text(r.name),
  },
  alarm: {
    schema: AlarmRecord,
    load: (db, id) =>
      db
        .selectFrom('hotelAlarm as a')
        .innerJoin('hotelDevice as d', 'd.id', 'a.deviceId')
        .select(['a.id', 'a.type', 'a.severity', 'a.count', 'a.acknowledgedBy', 'a.acknowledgedAt', 'a.clearedBy', 'a.clearedAt', 'd.name as deviceName', 'd.sn as deviceSn'])
        .where('a.id', '=', id)
        .executeTakeFirst(),
    label: (r) => `${text(r.type) === 'offline' ? '离线告警' : text(r.type)}：${text(r.deviceName)}（${text(r.deviceSn)}）`,
  },
  channel: {
    schema: ChannelRecord,
    // Credentials only as their masks (routes/monitor/channel).
    load: (db, id) => findChannelRecord(db, id),
    label: (r) => text(r.name),
  },
  message: {
    schema: MessageRecord,
    load: (db, id) => findMessageRecord(db, id),
    label: (r) => `${text(r.channelName)}：${text(r.title)}`,
  },
  session: {
    schema: OnlineRecord,
    load: (db, id) =>
      db
        .selectFrom('sysSession as s')
        .innerJoin('sysUser as u', 'u.id', 's.userId')
        .select(['s.id as sessionId', 's.userId', 'u.userName', 's.ip', 's.createdAt as signedInAt', 's.lastSeenAt'])
        .where('s.id', '=', id)
        .executeTakeFirst(),
    label: (r) => `${text(r.userName)}@${text(r.ip)}`,
  },
};

function orParsed(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}
