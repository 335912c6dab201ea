/** Device types are data (the device_type dictionary), so the options on screen and the rule here agree. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { invalid } from '../lib/errors';

const DEVICE_TYPE_DICT = 'device_type';

export async function assertKnownDeviceType(db: Kysely<Database>, type: string): Promise<void> {
  const entry = await db.selectFrom('sysDict').select('id').where('code', '=', DEVICE_TYPE_DICT).where('value', '=', type).where('state', '=', 1).executeTakeFirst();
  if (!entry) throw invalid('设备类型不正确：请从数据字典的设备类型中选择');
}
