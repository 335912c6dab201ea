/**
 * 在线用户 (monitor/online): live sessions, most recently active first. 强制下线 ends one session,
 * 全部下线 all of a user's; the forced user's next call answers 401. The server refuses the
 * operator's own current session and users beyond the operator's role; its msg is the toast.
 */
import { Button, Popconfirm, Tooltip } from 'antd';

import type { BodyOf } from '../../../../contract';
import { ListScreen, Permitted, type PagedQueryHook } from '../../../components/list-screen';
import { toast } from '../../../lib/toast';
import { useInquireOnlineSessionsQuery, useRevokeSessionMutation, useRevokeUserSessionsMutation } from './api';
import { onlineColumns, onlineFilters, type OnlineRow } from './config';

const ONLINE_VIEW = 'monitor/online';

const useOnlinePage: PagedQueryHook<BodyOf<'/monitor/online/inquire'>, OnlineRow> = useInquireOnlineSessionsQuery;

/** Runs a force logout; the list reloads through the mutation's tags. */
async function run(trigger: () => { unwrap(): Promise<{ msg: string }> }) {
  const envelope = await trigger()
    .unwrap()
    .catch(() => null);
  if (envelope) toast.success(envelope.msg);
}

type Revoke = ReturnType<typeof useRevokeSessionMutation>[0];
type RevokeUser = ReturnType<typeof useRevokeUserSessionsMutation>[0];

/**
 * A row's controls as plain elements (not a component of their own), so the list block sees each
 * guarded control and leaves out the 操作 column where the role may revoke nothing.
 */
function revokeActions(session: OnlineRow, revokeSession: Revoke, revokeUser: RevokeUser) {
  const own = session.current === 1;
  return (
    <>
      <Permitted view={ONLINE_VIEW} resource="api_revoke">
        {own ? (
          <Tooltip title="不能让自己当前的会话下线，请使用退出登录">
            <Button type="link" size="small" danger disabled>
              强制下线
            </Button>
          </Tooltip>
        ) : (
          <Popconfirm title={`确定让 ${session.userName} 的这个会话下线？`} onConfirm={() => run(() => revokeSession({ sessionId: session.sessionId }))}>
            <Button type="link" size="small" danger>
              强制下线
            </Button>
          </Popconfirm>
        )}
      </Permitted>
      <Permitted view={ONLINE_VIEW} resource="api_revokeUser">
        <Popconfirm
          title={own ? '确定让你的其他会话全部下线？' : `确定让 ${session.userName} 的所有会话下线？`}
          onConfirm={() => run(() => revokeUser({ userId: session.userId }))}
        >
          <Button type="link" size="small" danger>
            全部下线
          </Button>
        </Popconfirm>
      </Permitted>
    </>
  );
}

export default function MonitorOnlineScreen() {
  const [revokeSession] = useRevokeSessionMutation();
  const [revokeUser] = useRevokeUserSessionsMutation();
  return (
    <ListScreen
      view={ONLINE_VIEW}
      noun="在线用户"
      useInquire={useOnlinePage}
      rowKey="sessionId"
      filters={onlineFilters}
      columns={onlineColumns}
      rowActions={(session) => revokeActions(session, revokeSession, revokeUser)}
    />
  );
}
