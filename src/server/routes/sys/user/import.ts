/**
 * User import from .xlsx (用户名, 昵称, 状态, 角色): a preview that writes nothing, then an apply
 * that writes every row in one transaction or none. Rows are checked with the creation schema and
 * the same guards as the screen: role assignment within the operator's own grants, no touching
 * built-in administrators unless one is, not disabling oneself or changing one's own role.
 * A row whose 用户名 exists is an error, or with updateExisting an edit of that user.
 *
 * Passwords are never imported: each new user gets a generated one (passing the policy), answered
 * once in the apply summary for the operator to hand over; only its hash is kept.
 */
import type { FastifyInstance } from 'fastify';
import { USER_IMPORT_MAX_ROWS } from '../../../../contract/constants';
import { UserImportRow } from '../../../../contract/sys/user';
import { currentScope, currentUser, defineRoute, ok, type SessionUser } from '../../../lib/route';
import { hasOrg, type DataScope } from '../../../lib/data-scope';
import { AppError, conflict, invalid } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
import { assertPasswordPolicy, generatePassword } from '../../../lib/password-policy';
import {
  assertApplicable,
  previewMsg,
  previewSummary,
  readSheet,
  schemaProblem,
  sendTemplate,
  uploadedFile,
  type ImportColumn,
  type ImportPlan,
  type SheetRow,
} from '../../../lib/xlsx-import';
import { viewLabels, type ViewLabels } from '../../../services/dictionary-labels';
import { assertMayAssignRole, assertMayManageUser } from '../../../services/grants';

type Key = 'userName' | 'nickName' | 'state' | 'role';
const COLUMNS: readonly ImportColumn<Key>[] = [
  { key: 'userName', header: '用户名', required: true },
  { key: 'nickName', header: '昵称', required: true },
  { key: 'state', header: '状态' },
  { key: 'role', header: '角色' },
];
/** Contract field -> the column a problem with it is reported under. */
const HEADERS: Record<string, string> = { userName: '用户名', nickName: '昵称', state: '状态', roleId: '角色' };

interface NewUser {
  userName: string;
  nickName: string;
  state: number;
  roleId: number | null;
  orgId: number | null;
}
interface UserChange {
  id: number;
  version: number;
  userName: string;
  nickName: string;
  state: number;
  roleId: number | null;
}

export function userImportRoutes(app: FastifyInstance): void {
  defineRoute(app, '/sys/user/import/template', 'resource', async (_request, reply) => {
    const labels = await viewLabels(app.db, 'sys/user');
    return sendTemplate(reply, '用户导入模板', COLUMNS, [
      '在“导入数据”表中每行填写一个用户，表头不要修改；带 * 的列必填。',
      '用户名：3-32 位字母、数字或 _ . @ -，不能与已有用户重复（勾选“更新已有用户”时按用户名更新该用户）。',
      '昵称：1-32 个字符，不能以空格开头或结尾。',
      `状态：填写 ${labels.labelsOf('state').join(' 或 ') || '1 或 0'}；留空时新用户为启用，已有用户保持不变。`,
      '角色：填写角色名称；留空时新用户不绑定角色，已有用户保持原角色。只能分配权限不超出自己角色的角色。',
      '密码：不在表中填写。每个新用户由系统生成初始密码，只在导入结果中显示一次，请及时转交。',
      `每次最多导入 ${USER_IMPORT_MAX_ROWS} 行；任何一行有错误时整个文件都不会导入。`,
    ]);
  });

  /** Every check a row gets; nothing is written. */
  async function plan(request: Parameters<typeof schemaProblem>[0], me: SessionUser, scope: DataScope, rows: SheetRow<Key>[], updateExisting: boolean) {
    const result: ImportPlan<NewUser, UserChange> = { total: rows.length, creates: [], updates: [], errors: [] };
    const fail = (row: number, field: string, reason: string) => result.errors.push({ row, field, reason });
    const labels: ViewLabels = await viewLabels(app.db, 'sys/user');
    const roles = new Map((await app.db.selectFrom('sysRole').select(['id', 'name']).execute()).map((role) => [role.name, role.id]));
    const names = [...new Set(rows.map((row) => row.cells.userName))];
    const existing = new Map(
      (await app.db.selectFrom('sysUser').select(['id', 'userName', 'state', 'roleId', 'orgId', 'version']).where('userName', 'in', names).execute()).map((user) => [
        user.userName,
        user,
      ]),
    );
    const firstRowOf = new Map<string, number>();

    for (const { row, cells } of rows) {
      const errorsBefore = result.errors.length;
      const current = existing.get(cells.userName);
      const state = cells.state === '' ? (current?.state ?? 1) : Number(labels.valueOf('state', cells.state));
      if (Number.isNaN(state)) fail(row, '状态', `状态取值不正确：请填写 ${labels.labelsOf('state').join(' 或 ')}`);
      const roleId = cells.role === '' ? (current?.roleId ?? null) : (roles.get(cells.role) ?? null);
      if (cells.role !== '' && roleId === null) fail(row, '角色', `角色 ${cells.role} 不存在`);
      const body = { userName: cells.userName, nickName: cells.nickName, state: Number.isNaN(state) ? 1 : state, roleId };
      const problem = schemaProblem(request, UserImportRow, body, HEADERS);
      if (problem) result.errors.push({ row, ...problem });

      const seenAt = firstRowOf.get(cells.userName);
      if (seenAt !== undefined) fail(row, '用户名', `与第 ${seenAt} 行的用户名重复`);
      else firstRowOf.set(cells.userName, row);
      if (current && !updateExisting) fail(row, '用户名', `用户名 ${cells.userName} 已存在`);
      else if (current && !hasOrg(scope, current.orgId)) fail(row, '用户名', `用户 ${cells.userName} 不在您的数据范围内`);
      // New users join the importer's own unit.
      if (!current && !hasOrg(scope, me.orgId)) fail(row, '用户名', '您所在的单位不在您的数据范围内，不能导入新用户');
      if (result.errors.length > errorsBefore) continue;

      /** Runs a guard of the screens; its refusal becomes the row's problem with `field`. */
      const guard = async (field: string, check: () => Promise<void> | void) => {
        try {
          await check();
          return true;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          fail(row, field, error.message);
          return false;
        }
      };
      const roleChanges = body.roleId !== (current ? current.roleId : null);
      if (current) {
        const allowed =
          (await guard('用户名', () => assertMayManageUser(app.db, me, current))) &&
          (await guard('状态', () => {
            if (current.id === me.userId && body.state !== 1) throw invalid('不能禁用自己的账号');
          })) &&
          (await guard('角色', async () => {
            if (!roleChanges) return;
            if (current.id === me.userId) throw invalid('不能修改自己的角色');
            if (body.roleId !== null) await assertMayAssignRole(app.db, me, body.roleId, { scope, orgId: current.orgId });
          }));
        if (allowed) result.updates.push({ row, value: { ...body, id: current.id, version: current.version } });
      } else if (await guard('角色', async () => (body.roleId === null ? undefined : assertMayAssignRole(app.db, me, body.roleId, { scope, orgId: me.orgId })))) {
        result.creates.push({ row, value: { ...body, orgId: me.orgId } });
      }
    }
    return result;
  }

  defineRoute(app, '/sys/user/import', 'resource', async (request) => {
    const me = currentUser(request);
    const rows = await readSheet(uploadedFile(request), COLUMNS, USER_IMPORT_MAX_ROWS);
    const checked = await plan(request, me, currentScope(request), rows, request.query.updateExisting === '1');
    if (request.query.mode === 'preview') return ok(previewSummary(checked), previewMsg(checked));
    assertApplicable(checked);

    // Hashing is slow by design: it happens before the transaction, which then only writes.
    const credentials: Array<{ row: number; key: string; secret: string }> = [];
    const hashes = new Map<number, string>();
    for (const { row, value } of checked.creates) {
      let password = generatePassword();
      while (!policyHolds(password, value.userName)) password = generatePassword();
      hashes.set(row, await app.passwords.hash(password));
      credentials.push({ row, key: value.userName, secret: password });
    }
    const now = Date.now();
    await app.db.transaction().execute(async (trx) => {
      for (const { row, value } of checked.creates) {
        await uniquely(
          () =>
            trx
              .insertInto('sysUser')
              .values({ ...value, passwordHash: hashes.get(row)!, createdAt: now, updatedAt: now })
              .execute(),
          `导入未执行：第 ${row} 行的用户名 ${value.userName} 已存在，请重新预览`,
        );
      }
      for (const { row, value } of checked.updates) {
        const result = await trx
          .updateTable('sysUser')
          .set({ nickName: value.nickName, state: value.state, roleId: value.roleId, updatedAt: now, version: value.version + 1 })
          .where('id', '=', value.id)
          .where('version', '=', value.version)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw conflict(`导入未执行：第 ${row} 行的用户 ${value.userName} 已被他人修改，请重新预览`);
      }
    });
    // As on the edit screen: a disabled user is signed out everywhere at once.
    for (const { value } of checked.updates) if (value.state !== 1) await app.sessions.revokeUser(value.id, 'disabled', { msg: '账号通过导入被禁用' });

    const summary = { ...previewSummary(checked), applied: 1, credentials };
    return ok(summary, `导入成功：新增 ${checked.creates.length} 条，更新 ${checked.updates.length} 条`);
  });
}

function policyHolds(password: string, userName: string): boolean {
  try {
    assertPasswordPolicy(password, userName);
    return true;
  } catch {
    return false;
  }
}
