/** 用户: the users of a role, 10 per page, with 解绑 per user and 绑定用户 above the list. */
import { Button, Modal, Popconfirm, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';

import type { DataOf } from '../../../../contract';
import { ROLE_USER_PAGE_SIZE } from '../../../../contract/constants';
import { toast } from '../../../lib/toast';
import { useRoleUsersQuery, useUnbindRoleUserMutation } from './api';
import type { RoleRow } from './config';
import { UserPicker } from './user-picker';

type UserRow = DataOf<'/sys/role/user/inquire'>['records'][number];

interface RoleUsersDialogProps {
  role: RoleRow;
  onClose: () => void;
}

export function RoleUsersDialog({ role, onClose }: RoleUsersDialogProps) {
  const [current, setCurrent] = useState(1);
  const users = useRoleUsersQuery({ size: ROLE_USER_PAGE_SIZE, current, params: { roleId: role.id, member: 1 } });
  const [unbindRoleUser] = useUnbindRoleUserMutation();

  const unbind = async (user: UserRow) => {
    const envelope = await unbindRoleUser({ userId: user.id, roleId: role.id })
      .unwrap()
      .catch(() => null);
    if (envelope) toast.success(envelope.msg);
  };

  const columns: TableColumnsType<UserRow> = [
    { title: '用户名', dataIndex: 'userName' },
    { title: '昵称', dataIndex: 'nickName' },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_, user) => (
        <Popconfirm title={`解绑后 ${user.userName} 将没有角色，无法登录。确定解绑？`} onConfirm={() => unbind(user)}>
          <Button type="link" size="small" danger>
            解绑
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Modal open title={`角色用户：${role.name}`} width={720} onCancel={onClose} footer={null}>
      <UserPicker role={role} />
      <Table<UserRow>
        rowKey="id"
        size="small"
        style={{ marginTop: 12 }}
        columns={columns}
        dataSource={users.data?.records}
        loading={users.isFetching}
        pagination={{
          current,
          pageSize: ROLE_USER_PAGE_SIZE,
          total: users.data?.total,
          showSizeChanger: false,
          onChange: setCurrent,
        }}
      />
    </Modal>
  );
}
