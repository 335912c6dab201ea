/**
 * 角色管理 (sys/role): the role list on the shared list-screen block, plus the two role dialogs:
 * 授权 (what the role may use) and 用户 (who holds the role).
 */
import { Button } from 'antd';
import { useState } from 'react';

import { ListScreen, Permitted } from '../../../components/list-screen';
import { useCreateRoleMutation, useEditRoleMutation, useInquireRolesQuery } from './api';
import { roleColumns, roleCreateDefaults, roleFields, roleFilters, type RoleRow } from './config';
import { RoleGrantDialog } from './grant-dialog';
import { RoleUsersDialog } from './users-dialog';

export default function SysRoleScreen() {
  const [granting, setGranting] = useState<RoleRow | null>(null);
  const [showingUsers, setShowingUsers] = useState<RoleRow | null>(null);
  return (
    <>
      <ListScreen
        view="sys/role"
        noun="角色"
        useInquire={useInquireRolesQuery}
        filters={roleFilters}
        columns={roleColumns}
        fields={roleFields}
        createDefaults={roleCreateDefaults}
        create={{ useMutation: useCreateRoleMutation }}
        edit={{ useMutation: useEditRoleMutation }}
        exportTo={{ endpoint: '/sys/role/export', fileName: '角色列表.xlsx' }}
        rowActions={(role) => (
          <>
            <Permitted view="sys/role" resource={['api_menuResources', 'api_auth']}>
              <Button type="link" size="small" onClick={() => setGranting(role)}>
                授权
              </Button>
            </Permitted>
            <Permitted view="sys/role" resource="api_users">
              <Button type="link" size="small" onClick={() => setShowingUsers(role)}>
                用户
              </Button>
            </Permitted>
          </>
        )}
      />
      {granting && <RoleGrantDialog role={granting} onClose={() => setGranting(null)} />}
      {showingUsers && <RoleUsersDialog role={showingUsers} onClose={() => setShowingUsers(null)} />}
    </>
  );
}
