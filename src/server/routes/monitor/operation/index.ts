/**
 * Operation log (monitor/operation): read-only. Records are written by the audit hook
 * (plugins/app/audit.ts); here they are listed, shown in full, exported and their chain's
 * integrity checked. There is no edit or delete endpoint: old records leave only through the
 * retention task.
 */
import type { FastifyInstance } from 'fastify';
import { currentScope, defineRoute, ok } from '../../../lib/route';
import { sendXlsx } from '../../../lib/xlsx';
import { checkChainIntegrity, integrityMessage } from '../../../lib/audit-chain';
import { dictionaryLabels } from '../../../services/dictionary-labels';
import { formatTime } from '../../../../contract/time';
import { findOperation, inquireOperations, operationOptions, operationsForExport } from './repository';

export function operationRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  defineRoute(app, '/monitor/operation/inquire', 'resource', async (request) => ok(await inquireOperations(app.reads, currentScope(request), request.body)));

  defineRoute(app, '/monitor/operation/detail', 'resource', async (request) => ok(await findOperation(app.db, currentScope(request), request.body.id)));

  defineRoute(app, '/monitor/operation/options', 'resource', async () => ok(await operationOptions(app.db)));

  defineRoute(app, '/monitor/operation/integrity', 'resource', async () => {
    const report = await checkChainIntegrity(app.db, 'operation');
    return ok(report, integrityMessage(report));
  });

  defineRoute(app, '/monitor/operation/export', 'resource', async (request, reply) => {
    const [outcome, operatorType, targetType] = await Promise.all(
      ['monitor_outcome', 'monitor_operator_type', 'monitor_target_type'].map((code) => dictionaryLabels(app.db, code)),
    );
    return sendXlsx(reply, {
      fileName: '操作日志',
      sheetName: '操作日志',
      columns: [
        { header: '编号', width: 10, value: (r) => r.id },
        { header: '时间', width: 20, value: (r) => formatTime(r.at) },
        { header: '操作人类型', width: 10, value: (r) => operatorType(r.operatorType) },
        { header: '操作人', value: (r) => r.operatorName },
        { header: '模块', value: (r) => r.module },
        { header: '操作', value: (r) => r.action },
        { header: '对象类型', width: 10, value: (r) => (r.targetType ? targetType(r.targetType) : '') },
        { header: '对象编号', width: 10, value: (r) => r.targetId },
        { header: '对象', width: 24, value: (r) => r.targetLabel },
        { header: '结果', width: 8, value: (r) => outcome(r.outcome) },
        { header: '代码', width: 8, value: (r) => r.code },
        { header: '消息', width: 30, value: (r) => r.msg },
        { header: 'IP 地址', value: (r) => r.ip },
        { header: '耗时（毫秒）', width: 12, value: (r) => r.durationMs },
      ],
      rows: operationsForExport(app.reads, currentScope(request), request.body.params ?? {}),
    });
  });
  done();
}
