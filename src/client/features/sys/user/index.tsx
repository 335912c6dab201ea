/** 用户管理 (sys/user): list, add, edit, reset a password, enable or disable an account. */
import { Button, Popconfirm } from 'antd';
import { useState } from 'react';

import { ListScreen, Permitted, stateBatchActions } from '../../../components/list-screen';
import { useBatchUserStateMutation, useCreateUserMutation, useEditUserMutation, useInquireUsersQuery } from './api';
import { userColumns, userCreateDefaults, userCreatedMsg, userFields, userFilters, userImport, withRoleOrNull, type UserRow } from './config';
import { PasswordResetDialog } from './password-reset-dialog';

export default function SysUserScreen() {
  const [resetting, setResetting] = useState<UserRow | null>(null);
  return (
    <>
      <ListScreen
        view="sys/user"
        noun="用户"
        useInquire={useInquireUsersQuery}
        filters={userFilters}
        columns={userColumns}
        fields={userFields}
        createDefaults={userCreateDefaults}
        fromForm={{ create: withRoleOrNull, edit: withRoleOrNull }}
        create={{ useMutation: useCreateUserMutation, successMsg: userCreatedMsg }}
        edit={{ useMutation: useEditUserMutation }}
        exportTo={{ endpoint: '/sys/user/export', fileName: '用户列表.xlsx' }}
        importFrom={userImport}
        batch={{
          resource: ['api_batchState', 'api_edit'],
          useMutation: useBatchUserStateMutation,
          actions: stateBatchActions('个用户', '禁用的用户将立即退出登录。'),
        }}
        rowActions={(user, { quickEdit }) => (
          <>
            <Permitted view="sys/user" resource="api_passwordReset">
              <Button type="link" size="small" onClick={() => setResetting(user)}>
                重置密码
              </Button>
            </Permitted>
            <Permitted view="sys/user" resource="api_edit">
              {user.state === 1 ? (
                // Disabling signs the user out everywhere at once, hence the confirmation.
                <Popconfirm title={`禁用后 ${user.userName} 将立即退出登录。确定禁用？`} onConfirm={() => quickEdit(user, { state: 0 })}>
                  <Button type="link" size="small" danger>
                    禁用
                  </Button>
                </Popconfirm>
              ) : (
                <Button type="link" size="small" onClick={() => void quickEdit(user, { state: 1 })}>
                  启用
                </Button>
              )}
            </Permitted>
          </>
        )}
      />
      {resetting && <PasswordResetDialog user={resetting} onClose={() => setResetting(null)} />}
    </>
  );
}
