/**
 * Login log (monitor/login): read-only. Sign-in attempts are written by the sign-in route, sign-outs
 * and session ends by the session service, both through `Audit`; here they are listed, exported
 * and their chain's integrity checked.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../../../db/schema';
import type { BodyOf, DataOf } from '../../../../contract';
import { currentScope, defineRoute, ok } from '../../../lib/route';
import { inScope, type DataScope, type ScopeColumns } from '../../../lib/data-scope';
import { given } from '../../../lib/list-query';
import { sendXlsx } from '../../../lib/xlsx';
import { checkChainIntegrity, integrityMessage } from '../../../lib/audit-chain';
import { dictionaryLabels } from '../../../services/dictionary-labels';
import { formatTime } from '../../../../contract/time';
import { newestFirstInBatches, newestFirstPage } from '../../../lib/keyset-batches';

type Filters = NonNullable<BodyOf<'/monitor/login/inquire'>['params']>;
type LoginRecord = DataOf<'/monitor/login/inquire'>['records'][number];

const recordColumns = ['id', 'at', 'event', 'outcome', 'userId', 'userName', 'ip', 'browser', 'os', 'msg', 'orgId'] as const;
const toRecord = (row: Pick<Row<'sysLoginLog'>, (typeof recordColumns)[number]>): LoginRecord => ({
  ...row,
  event: row.event as LoginRecord['event'],
  outcome: row.outcome as LoginRecord['outcome'],
});

/** A record is in scope when its user's unit is (仅本人: the caller's own records). */
const LOGIN_SCOPE: ScopeColumns = { org: 'sysLoginLog.orgId', self: 'sysLoginLog.userId' };

/** Text filters match exactly (user name and address each lead an index ending in at, id). */
function filteredLogins(db: Kysely<Database>, scope: DataScope, params: Filters) {
  let query = db.selectFrom('sysLoginLog').$call(inScope(scope, LOGIN_SCOPE));
  if (params.startAt !== undefined) query = query.where('at', '>=', params.startAt);
  if (params.endAt !== undefined) query = query.where('at', '<=', params.endAt);
  if (given(params.userName)) query = query.where('userName', '=', params.userName.trim());
  if (given(params.ip)) query = query.where('ip', '=', params.ip.trim());
  if (params.event !== undefined) query = query.where('event', '=', params.event);
  if (params.outcome !== undefined) query = query.where('outcome', '=', params.outcome);
  return query;
}

async function* loginsForExport(db: Kysely<Database>, scope: DataScope, params: Filters): AsyncGenerator<LoginRecord> {
  for await (const row of newestFirstInBatches(filteredLogins(db, scope, params).select(recordColumns))) yield toRecord(row);
}

export function loginRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, '/monitor/login/inquire', 'resource', async (request) => {
    const { size, current, after, params = {} } = request.body;
    const page = await newestFirstPage({ size, current, after }, app.reads, filteredLogins(app.reads, currentScope(request), params).select('id'), (ids) =>
      app.reads.selectFrom('sysLoginLog').select(recordColumns).where('id', 'in', ids),
    );
    return ok({ ...page, records: page.records.map(toRecord) });
  });

  defineRoute(app, '/monitor/login/integrity', 'resource', async () => {
    const report = await checkChainIntegrity(app.db, 'login');
    return ok(report, integrityMessage(report));
  });

  defineRoute(app, '/monitor/login/export', 'resource', async (request, reply) => {
    const [event, outcome] = await Promise.all(['monitor_login_event', 'monitor_login_outcome'].map((code) => dictionaryLabels(app.db, code)));
    return sendXlsx(reply, {
      fileName: '登录日志',
      sheetName: '登录日志',
      columns: [
        { header: '编号', width: 10, value: (r) => r.id },
        { header: '时间', width: 20, value: (r) => formatTime(r.at) },
        { header: '用户名', value: (r) => r.userName },
        { header: '事件', width: 10, value: (r) => event(r.event) },
        { header: '结果', width: 10, value: (r) => outcome(r.outcome) },
        { header: 'IP 地址', value: (r) => r.ip },
        { header: '浏览器', value: (r) => r.browser },
        { header: '操作系统', value: (r) => r.os },
        { header: '消息', width: 30, value: (r) => r.msg },
      ],
      rows: loginsForExport(app.reads, currentScope(request), request.body.params ?? {}),
    });
  });
  done();
}
