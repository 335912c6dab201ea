/**
 * Batch actions (issue 25): enabling or disabling many users or devices and acknowledging many
 * alarms with a note. All or nothing: one refused row refuses the batch, the refusal names each
 * refused row with its reason, and nothing changes; one operation-log record per row; the single
 * action's resource is needed besides the batch's own.
 */
import { describeOnEachDatabase } from './support/harness';
import { createUser, expectOk, deviceRow, menuGrants, resourceId, setPresence, signedInOperator } from './support/sys-fixtures';

describeOnEachDatabase('batch actions', (ctx) => {
  let admin: string;
  beforeAll(async () => {
    admin = await ctx().login();
  });
  const db = () => ctx().database.db;
  const logOf = (path: string, since: number) =>
    db().selectFrom('sysOperationLog').select(['targetId', 'targetLabel', 'outcome', 'changes', 'msg']).where('path', '=', path).where('id', '>', since).orderBy('id').execute();
  const lastLogId = async () => (await db().selectFrom('sysOperationLog').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0;
  const stateChange = (changes: string) => (JSON.parse(changes) as Array<{ field: string; before: unknown; after: unknown }>).find((c) => c.field === 'state');

  describe('users', () => {
    it('disables several users at once with one audit record each', async () => {
      const a = await createUser(ctx(), admin, 'batch_user_a', null);
      const b = await createUser(ctx(), admin, 'batch_user_b', null);
      const since = await lastLogId();
      const answer = await ctx().call('/sys/user/batch/state', { ids: [a.id, b.id], state: 0 }, admin);
      expect(answer).toEqual({ code: 200, msg: '已禁用 2 个用户', data: { count: 2 } });
      const rows = await db().selectFrom('sysUser').select(['id', 'state', 'version']).where('id', 'in', [a.id, b.id]).orderBy('id').execute();
      expect(rows).toEqual([
        { id: a.id, state: 0, version: a.version + 1 },
        { id: b.id, state: 0, version: b.version + 1 },
      ]);
      const log = await logOf('/sys/user/batch/state', since);
      expect(log.map((r) => [r.targetId, r.outcome])).toEqual([
        [String(a.id), 'success'],
        [String(b.id), 'success'],
      ]);
      expect(log.map((r) => stateChange(r.changes))).toEqual([expect.objectContaining({ before: 1, after: 0 }), expect.objectContaining({ before: 1, after: 0 })]);
      expect(log.every((r) => r.targetLabel.includes('batch_user_'))).toBe(true);
    });

    it('refuses the whole batch naming each refused row, and changes nothing', async () => {
      const ok = await createUser(ctx(), admin, 'batch_user_ok', null);
      const me = expectOk(await ctx().call('/sys/user/inquire', { size: 1, current: 1, params: { userName: 'admin' } }, admin)).records[0];
      const since = await lastLogId();
      const answer = await ctx().call('/sys/user/batch/state', { ids: [ok.id, me.id, 999_999], state: 0 }, admin);
      expect(answer).toEqual({
        code: 400,
        msg: `2 项不能执行，未做任何更改（编号 ${me.id}：不能禁用自己的账号）`,
        data: null,
        errors: [
          { field: 'ids.1', msg: `编号 ${me.id}：不能禁用自己的账号` },
          { field: 'ids.2', msg: '编号 999999：用户不存在' },
        ],
      });
      expect(await db().selectFrom('sysUser').select('state').where('id', '=', ok.id).executeTakeFirstOrThrow()).toEqual({ state: 1 });
      const log = await logOf('/sys/user/batch/state', since);
      expect(log.map((r) => [r.targetId, r.outcome])).toEqual([
        [String(ok.id), 'refused'],
        [String(me.id), 'refused'],
        ['999999', 'refused'],
      ]);
      expect(log.every((r) => r.changes === '[]')).toBe(true);
    });

    it('asks for the single edit resource besides the batch resource', async () => {
      const target = await createUser(ctx(), admin, 'batch_user_guard', null);
      const all = await menuGrants(ctx(), '/sys/user');
      const edit = await resourceId(ctx(), '/sys/user/edit');
      const batch = await resourceId(ctx(), '/sys/user/batch/state');
      const withoutEdit = await signedInOperator(
        ctx(),
        admin,
        'batch_no_edit',
        all.filter((g) => g.resource !== edit || g.type !== 'resource'),
      );
      expect(await ctx().call('/sys/user/batch/state', { ids: [target.id], state: 0 }, withoutEdit.token)).toEqual({ code: 403, msg: '没有权限执行该操作', data: null });
      const withoutBatch = await signedInOperator(
        ctx(),
        admin,
        'batch_no_batch',
        all.filter((g) => g.resource !== batch || g.type !== 'resource'),
      );
      expect(await ctx().call('/sys/user/batch/state', { ids: [target.id], state: 0 }, withoutBatch.token)).toMatchObject({ code: 403 });
      expect(await db().selectFrom('sysUser').select('state').where('id', '=', target.id).executeTakeFirstOrThrow()).toEqual({ state: 1 });
      const withBoth = await signedInOperator(ctx(), admin, 'batch_both', all);
      expect(await ctx().call('/sys/user/batch/state', { ids: [target.id], state: 0 }, withBoth.token)).toMatchObject({ code: 200, data: { count: 1 } });
    });

    it('refuses an empty or repeated list of ids as a field of the request', async () => {
      expect(await ctx().call('/sys/user/batch/state', { ids: [], state: 0 }, admin)).toMatchObject({ code: 400, errors: [{ field: 'ids' }] });
      expect(await ctx().call('/sys/user/batch/state', { ids: [1, 1], state: 0 }, admin)).toMatchObject({ code: 400, errors: [{ field: 'ids' }] });
    });
  });

  describe('devices', () => {
    it('enables and disables several devices, marking the disabled offline, with one audit record each', async () => {
      const inserted = await db()
        .insertInto('hotelDevice')
        .values([deviceRow('BATCH-DEV-1'), deviceRow('BATCH-DEV-2')])
        .returning('id')
        .execute();
      const ids = inserted.map((row) => row.id);
      await setPresence(db(), ids, { online: 1, lastSeenAt: Date.now() });
      const since = await lastLogId();
      expect(await ctx().call('/hotel/device/batch/state', { ids, state: 0 }, admin)).toEqual({ code: 200, msg: '已禁用 2 台设备', data: { count: 2 } });
      expect(await db().selectFrom('hotelDevice').select('state').where('id', 'in', ids).execute()).toEqual([{ state: 0 }, { state: 0 }]);
      expect(await db().selectFrom('hotelDevicePresence').select('online').where('id', 'in', ids).execute()).toEqual([{ online: 0 }, { online: 0 }]);
      const log = await logOf('/hotel/device/batch/state', since);
      expect(log.map((r) => [r.targetId, r.outcome, stateChange(r.changes)?.after])).toEqual([
        [String(ids[0]), 'success', 0],
        [String(ids[1]), 'success', 0],
      ]);

      const refused = await ctx().call('/hotel/device/batch/state', { ids: [ids[0], 999_998], state: 1 }, admin);
      expect(refused).toMatchObject({ code: 404, data: null, errors: [{ field: 'ids.1', msg: '编号 999998：设备不存在' }] });
      expect(await db().selectFrom('hotelDevice').select('state').where('id', '=', ids[0]).executeTakeFirstOrThrow()).toEqual({ state: 0 });
      expect(await ctx().call('/hotel/device/batch/state', { ids, state: 1 }, admin)).toMatchObject({ code: 200, msg: '已启用 2 台设备' });
    });
  });

  describe('alarms', () => {
    const raise = async (sn: string, overrides: { acknowledgedAt?: number; clearedAt?: number } = {}) => {
      const device = await db().insertInto('hotelDevice').values(deviceRow(sn)).returning('id').executeTakeFirstOrThrow();
      const now = Date.now();
      const alarm = await db()
        .insertInto('hotelAlarm')
        .values({
          deviceId: device.id,
          type: 'offline',
          severity: 'major',
          message: '设备心跳超时，已离线',
          startedAt: now,
          lastAt: now,
          acknowledgedBy: overrides.acknowledgedAt ? 'admin' : null,
          acknowledgedAt: overrides.acknowledgedAt ?? null,
          clearedBy: overrides.clearedAt ? '系统' : null,
          clearedAt: overrides.clearedAt ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return alarm.id;
    };

    it('acknowledges several alarms with the note, shown in the list and the device history, one audit record each', async () => {
      const ids = [await raise('BATCH-ALM-1'), await raise('BATCH-ALM-2')];
      const since = await lastLogId();
      expect(await ctx().call('/hotel/alarm/batch/acknowledge', { ids, note: '已派人检查' }, admin)).toEqual({ code: 200, msg: '已确认 2 条告警', data: { count: 2 } });
      const listed = expectOk(await ctx().call('/hotel/alarm/inquire', { size: 100, current: 1, params: { device: 'BATCH-ALM-' } }, admin)).records;
      expect(listed.map((a) => [a.acknowledgedBy, a.acknowledgeNote])).toEqual([
        ['admin', '已派人检查'],
        ['admin', '已派人检查'],
      ]);
      const log = await logOf('/hotel/alarm/batch/acknowledge', since);
      expect(log.map((r) => r.targetId).sort()).toEqual(ids.map(String).sort());
      expect(log.every((r) => r.targetLabel.startsWith('设备离线：') && r.changes.includes('已派人检查'))).toBe(true);

      const single = await raise('BATCH-ALM-3');
      expectOk(await ctx().call('/hotel/alarm/acknowledge', { ids: [single], note: '误报' }, admin));
      const device = await db().selectFrom('hotelAlarm').select('deviceId').where('id', '=', single).executeTakeFirstOrThrow();
      const status = expectOk(await ctx().call('/hotel/device/status', { id: device.deviceId, size: 10, current: 1 }, admin));
      expect(status.alarms).toMatchObject([{ id: single, acknowledgeNote: '误报' }]);
    });

    it('refuses the batch when an alarm is already acknowledged or cleared, naming each, and acknowledges none', async () => {
      const open = await raise('BATCH-ALM-OPEN');
      const acked = await raise('BATCH-ALM-ACKED', { acknowledgedAt: Date.now() });
      const cleared = await raise('BATCH-ALM-CLEARED', { clearedAt: Date.now() });
      const answer = await ctx().call('/hotel/alarm/batch/acknowledge', { ids: [open, acked, cleared] }, admin);
      expect(answer).toMatchObject({
        code: 409,
        data: null,
        errors: [
          { field: 'ids.1', msg: `编号 ${acked}：告警已确认，不能重复确认` },
          { field: 'ids.2', msg: `编号 ${cleared}：告警已清除，无需确认` },
        ],
      });
      expect(await db().selectFrom('hotelAlarm').select(['acknowledgedAt', 'acknowledgeNote']).where('id', '=', open).executeTakeFirstOrThrow()).toEqual({
        acknowledgedAt: null,
        acknowledgeNote: '',
      });
    });
  });
});
