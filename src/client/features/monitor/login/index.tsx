/**
 * 登录日志 (monitor/login): sign-in attempts, sign-outs and session ends, newest first; read-only,
 * with export and the hash-chain check.
 */
import type { BodyOf } from '../../../../contract';
import { ListScreen, Permitted, type PagedQueryHook } from '../../../components/list-screen';
import { IntegrityCheckButton } from '../../../components/integrity-check';
import { useInquireLoginsQuery, useLazyCheckLoginIntegrityQuery } from './api';
import { loginColumns, loginFilters, type LoginRow } from './config';

const useLoginPage: PagedQueryHook<BodyOf<'/monitor/login/inquire'>, LoginRow> = useInquireLoginsQuery;

export default function MonitorLoginScreen() {
  return (
    <ListScreen
      view="monitor/login"
      noun="登录日志"
      useInquire={useLoginPage}
      filters={loginFilters}
      columns={loginColumns}
      exportTo={{ endpoint: '/monitor/login/export', fileName: '登录日志.xlsx' }}
      toolbar={() => (
        <Permitted view="monitor/login" resource="api_integrity">
          <IntegrityCheckButton useCheck={useLazyCheckLoginIntegrityQuery} />
        </Permitted>
      )}
    />
  );
}
