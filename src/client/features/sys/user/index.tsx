/**
 * 用户管理 (sys/user): list, add, edit, reset a password, enable or disable an account. With the
 * organisation tree beside the list (for a role holding the screen's 可选单位): a selected unit narrows the list
 * to it and the units under it, and is where a new user starts.
 */
import { Button, Col, Popconfirm, Row } from 'antd';
import { useMemo, useState } from 'react';

import { ListScreen, Permitted, stateBatchActions } from '../../../components/list-screen';
import { OrgTreePanel, useOrgTreeGranted } from '../../../components/org-tree';
import { useBatchUserStateMutation, useCreateUserMutation, useEditUserMutation, useInquireUsersQuery } from './api';
import { USER_TABLE_WIDTH, USER_VIEW, userColumns, userCreateDefaults, userCreatedMsg, userFieldsFor, userFilters, userImport, withRoleOrNull, type UserRow } from './config';
import { PasswordResetDialog } from './password-reset-dialog';

export default function SysUserScreen() {
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const withTree = useOrgTreeGranted(USER_VIEW);
  const [orgId, setOrgId] = useState<number | null>(null);
  const fixedParams = useMemo(() => (orgId === null ? undefined : { orgId }), [orgId]);
  const fields = useMemo(() => userFieldsFor(withTree), [withTree]);
  const createDefaults = useMemo(() => userCreateDefaults(orgId), [orgId]);
  const list = (
    <ListScreen
      view={USER_VIEW}
      noun="用户"
      useInquire={useInquireUsersQuery}
      filters={userFilters}
      columns={userColumns}
      minWidth={USER_TABLE_WIDTH}
      fixedParams={fixedParams}
      fields={fields}
      createDefaults={createDefaults}
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
          <Permitted view={USER_VIEW} resource="api_passwordReset">
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
  );
  return (
    <>
      {withTree ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={6} xxl={5}>
            <OrgTreePanel view={USER_VIEW} selected={orgId} onSelect={setOrgId} />
          </Col>
          <Col xs={24} lg={18} xxl={19}>
            {list}
          </Col>
        </Row>
      ) : (
        list
      )}
      {resetting && <PasswordResetDialog user={resetting} onClose={() => setResetting(null)} />}
    </>
  );
}
