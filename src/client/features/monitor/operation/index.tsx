/**
 * 操作日志 (monitor/operation): every state-changing call and every refused one, newest first;
 * read-only. 详情 shows the parameters and an edit's before/after; 导出 saves the filtered list;
 * 校验完整性 checks the hash chain.
 */
import { ListScreen, Permitted, type PagedQueryHook } from '../../../components/list-screen';
import type { BodyOf } from '../../../../contract';
import { IntegrityCheckButton } from '../../../components/integrity-check';
import { useInquireOperationsQuery, useLazyCheckOperationIntegrityQuery } from './api';
import { operationColumns, operationFilters, type OperationRow } from './config';
import { OperationDetail } from './detail-drawer';

const useOperationPage: PagedQueryHook<BodyOf<'/monitor/operation/inquire'>, OperationRow> = useInquireOperationsQuery;

export default function MonitorOperationScreen() {
  return (
    <ListScreen
      view="monitor/operation"
      noun="操作日志"
      useInquire={useOperationPage}
      filters={operationFilters}
      columns={operationColumns}
      detail={{ title: (row) => `操作详情：${row.module} · ${row.action}`, render: (row) => <OperationDetail row={row} />, width: 820, resource: 'api_detail' }}
      exportTo={{ endpoint: '/monitor/operation/export', fileName: '操作日志.xlsx' }}
      toolbar={() => (
        <Permitted view="monitor/operation" resource="api_integrity">
          <IntegrityCheckButton useCheck={useLazyCheckOperationIntegrityQuery} />
        </Permitted>
      )}
    />
  );
}
