/**
 * Device import from .xlsx (设备名称, 序列号, 设备类型, 位置, 状态, 备注): a preview that writes
 * nothing, then an apply that writes every row in one transaction or none. Rows are checked with
 * the creation schema and the screen's rules (the type an enabled device_type entry; a type since
 * disabled may stay on a device that has it). 位置 is a location's path (主楼/8F/0808) within the
 * caller's data scope; the device goes to that location's hotel. A row whose 序列号 exists is an
 * error, or with updateExisting an edit of that device (its key is kept).
 *
 * Each new device gets its own key, as on the screen: answered once in the apply summary, only its
 * hash kept.
 */
import type { FastifyInstance } from 'fastify';
import { DEVICE_IMPORT_MAX_ROWS } from '../../../../contract/constants';
import { DeviceCreation } from '../../../../contract/hotel/device';
import { currentScope, currentUser, defineRoute, ok } from '../../../lib/route';
import { hasOrg, holdsRow, type DataScope } from '../../../lib/data-scope';
import { AppError, conflict } from '../../../lib/errors';
import { uniquely } from '../../../lib/conflicts';
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
import { viewLabels } from '../../../services/dictionary-labels';
import { setOfflineWhenDisabled } from './presence';
import { hashDeviceKey, issueDeviceKey } from './device-key';
import { assertKnownDeviceType } from '../../../services/device-types';

type Key = 'name' | 'sn' | 'type' | 'location' | 'state' | 'remark';
const COLUMNS: readonly ImportColumn<Key>[] = [
  { key: 'name', header: '设备名称', required: true },
  { key: 'sn', header: '序列号', required: true },
  { key: 'type', header: '设备类型', required: true },
  { key: 'location', header: '位置' },
  { key: 'state', header: '状态' },
  { key: 'remark', header: '备注' },
];
const HEADERS: Record<string, string> = { ...Object.fromEntries(COLUMNS.map((column) => [column.key, column.header])), locationId: '位置' };

interface DeviceFields {
  name: string;
  sn: string;
  type: string;
  locationId: number | null;
  state: number;
  remark: string;
  orgId: number | null;
}
type DeviceChange = DeviceFields & { id: number; version: number };

/** A location found by its path: where it is and the building that decides its scope. */
interface PlacedLocation {
  id: number;
  building: { orgId: number | null; createdBy: number | null };
}

/** 主楼/8F/0808 (spaces around the slashes allowed, 主楼 / 8F / 0808 as the screens show it) as its names. */
const pathNames = (path: string) => path.split('/').map((name) => name.trim());

export function deviceImportRoutes(app: FastifyInstance): void {
  defineRoute(app, '/hotel/device/import/template', 'resource', async (_request, reply) => {
    const labels = await viewLabels(app.db, 'hotel/device');
    return sendTemplate(reply, '设备导入模板', COLUMNS, [
      '在“导入数据”表中每行填写一台设备，表头不要修改；带 * 的列必填。',
      '序列号：4-64 位字母、数字、_ 或 -，不能与已有设备重复（勾选“更新已有设备”时按序列号更新该设备，密钥不变）。',
      `设备类型：填写 ${labels.labelsOf('type').join('、') || '数据字典中设备类型的值'}。`,
      '位置：填写位置路径，如 主楼/8F/0808（也可以只到楼栋或楼层），须是您数据范围内已有的位置；留空时新设备没有位置，已有设备保持原位置。',
      '备注：最多 200 个字符，可留空。',
      `状态：填写 ${labels.labelsOf('state').join(' 或 ') || '1 或 0'}；留空时新设备为启用，已有设备保持不变。`,
      '设备密钥：每台新设备由系统生成，只在导入结果中显示一次，请及时配置到设备上。',
      `每次最多导入 ${DEVICE_IMPORT_MAX_ROWS} 行；任何一行有错误时整个文件都不会导入。`,
    ]);
  });

  async function plan(request: Parameters<typeof schemaProblem>[0], scope: DataScope, myOrgId: number | null, rows: SheetRow<Key>[], updateExisting: boolean) {
    const result: ImportPlan<DeviceFields, DeviceChange> = { total: rows.length, creates: [], updates: [], errors: [] };
    const fail = (row: number, field: string, reason: string) => result.errors.push({ row, field, reason });
    const labels = await viewLabels(app.db, 'hotel/device');
    const existing = new Map<
      string,
      {
        id: number;
        sn: string;
        type: string;
        state: number;
        version: number;
        locationId: number | null;
        orgId: number | null;
        createdBy: number | null;
        deletedAt: number | null;
      }
    >();
    const serials = [...new Set(rows.map((row) => row.cells.sn))];
    for (let start = 0; start < serials.length; start += 500) {
      const found = await app.db
        .selectFrom('hotelDevice')
        .select(['id', 'sn', 'type', 'state', 'version', 'locationId', 'orgId', 'createdBy', 'deletedAt'])
        .where('sn', 'in', serials.slice(start, start + 500))
        .execute();
      found.forEach((device) => existing.set(device.sn, device));
    }
    const firstRowOf = new Map<string, number>();
    // Each path once, a level at a time down the (parent, name) index; null: no such location.
    const placed = new Map<string, PlacedLocation | null>();
    const locate = async (path: string): Promise<PlacedLocation | null> => {
      const key = pathNames(path).join('/');
      if (!placed.has(key)) {
        let found: PlacedLocation | null = null;
        let building: PlacedLocation['building'] | null = null;
        let parentId = 0;
        for (const name of pathNames(path)) {
          const node = await app.db.selectFrom('hotelLocation').select(['id', 'orgId', 'createdBy']).where('parentId', '=', parentId).where('name', '=', name).executeTakeFirst();
          if (!node) {
            found = null;
            break;
          }
          building ??= { orgId: node.orgId, createdBy: node.createdBy };
          found = { id: node.id, building };
          parentId = node.id;
        }
        placed.set(key, found);
      }
      return placed.get(key) ?? null;
    };

    for (const { row, cells } of rows) {
      const errorsBefore = result.errors.length;
      const current = existing.get(cells.sn);
      const state = cells.state === '' ? (current?.state ?? 1) : Number(labels.valueOf('state', cells.state));
      if (Number.isNaN(state)) fail(row, '状态', `状态取值不正确：请填写 ${labels.labelsOf('state').join(' 或 ')}`);
      // A label (智能门锁) or the stored value (lock) names the type.
      const type = labels.valueOf('type', cells.type) ?? cells.type;
      // An out-of-scope location answers as an unknown one would: its existence is not the caller's to learn.
      const location = cells.location === '' ? null : await locate(cells.location);
      if (location && !holdsRow(scope, location.building)) fail(row, '位置', `位置不存在或不在您的数据范围内：${cells.location}`);
      else if (cells.location !== '' && !location) fail(row, '位置', `位置不存在或不在您的数据范围内：${cells.location}`);
      const locationId = cells.location === '' ? (current?.locationId ?? null) : (location?.id ?? null);
      const body = { name: cells.name, sn: cells.sn, type, locationId, state: Number.isNaN(state) ? 1 : state, remark: cells.remark };
      const problem = schemaProblem(request, DeviceCreation, body, HEADERS);
      if (problem) result.errors.push({ row, ...problem });

      const seenAt = firstRowOf.get(cells.sn);
      if (seenAt !== undefined) fail(row, '序列号', `与第 ${seenAt} 行的序列号重复`);
      else firstRowOf.set(cells.sn, row);
      // A deleted device keeps its serial number for its history (docs/api/hotel.md, device removal).
      if (current && current.deletedAt !== null) fail(row, '序列号', '序列号属于已删除的设备，不能再用');
      else if (current && !updateExisting) fail(row, '序列号', '序列号已存在');
      else if (current && !holdsRow(scope, current)) fail(row, '序列号', `设备 ${cells.sn} 不在您的数据范围内`);
      // A device goes to its location's hotel; without one a new device joins the importer's own unit.
      const orgId = location ? location.building.orgId : current ? current.orgId : myOrgId;
      if (!location && !current && scope.kind !== 'all' && !hasOrg(scope, myOrgId)) fail(row, '序列号', '您所在的单位不在您的数据范围内，不能导入新设备');
      if (result.errors.length > errorsBefore) continue;

      try {
        if (body.type !== current?.type) await assertKnownDeviceType(app.db, body.type);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        fail(row, '设备类型', error.message);
        continue;
      }
      if (current) result.updates.push({ row, value: { ...body, orgId, id: current.id, version: current.version } });
      else result.creates.push({ row, value: { ...body, orgId } });
    }
    return result;
  }

  defineRoute(app, '/hotel/device/import', 'resource', async (request) => {
    const rows = await readSheet(uploadedFile(request), COLUMNS, DEVICE_IMPORT_MAX_ROWS);
    const me = currentUser(request);
    const checked = await plan(request, currentScope(request), me.orgId, rows, request.query.updateExisting === '1');
    if (request.query.mode === 'preview') return ok(previewSummary(checked), previewMsg(checked));
    assertApplicable(checked);

    const credentials: Array<{ row: number; key: string; secret: string }> = [];
    const now = Date.now();
    await app.db.transaction().execute(async (trx) => {
      for (const { row, value } of checked.creates) {
        const deviceKey = issueDeviceKey();
        await uniquely(
          () =>
            trx
              .insertInto('hotelDevice')
              .values({ ...value, createdBy: me.userId, keyHash: hashDeviceKey(deviceKey), createdAt: now, updatedAt: now })
              .execute(),
          `导入未执行：第 ${row} 行的序列号 ${value.sn} 已存在，请重新预览`,
        );
        credentials.push({ row, key: value.sn, secret: deviceKey });
      }
      for (const { row, value } of checked.updates) {
        const { id, version, ...fields } = value;
        const result = await trx
          .updateTable('hotelDevice')
          .set({ ...fields, updatedAt: now, version: version + 1 })
          .where('id', '=', id)
          .where('version', '=', version)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw conflict(`导入未执行：第 ${row} 行的设备 ${value.sn} 已被他人修改，请重新预览`);
        if (fields.state !== 1) await setOfflineWhenDisabled(trx, id);
      }
    });

    const summary = { ...previewSummary(checked), applied: 1, credentials };
    return ok(summary, `导入成功：新增 ${checked.creates.length} 条，更新 ${checked.updates.length} 条`);
  });
}
