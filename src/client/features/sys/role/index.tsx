/**
 * 角色管理 (sys/role): the role list on the shared list-screen block, plus the two role dialogs:
 * 授权 (what the role may use) and 用户 (who holds the role).
 */
import { Button, Space, Tag } from 'antd';
import { useState } from 'react';

import type { BodyOf } from '../../../../contract';
import { ListScreen, type ColumnConfig, type FieldConfig, type SortKeyOf } from '../../../components/list-screen';
import { useCreateRoleMutation, useEditRoleMutation, useInquireRolesQuery } from './api';
import { RoleGrantDialog } from './grant/role-grant-dialog';
import type { RoleRow } from './role-row';
import { RoleUsersDialog } from './users/role-users-dialog';

const filters: FieldConfig[] = [
  { name: 'name', label: '角色名称', kind: 'text', max: 32 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

const columns: ColumnConfig<RoleRow, SortKeyOf<BodyOf<'/sys/role/inquire'>>>[] = [
  {
    title: '角色名称',
    dataIndex: 'name',
    sortKey: 'name',
    render: (name: string, role) => (
      <Space size={4}>
        {name}
        {role.builtin === 1 && <Tag color="blue">内置</Tag>}
      </Space>
    ),
  },
  { title: '备注', dataIndex: 'remark', ellipsis: true },
  { title: '状态', dataIndex: 'state', dict: 'state', width: 90, sortKey: 'state' },
  { title: '用户数', dataIndex: 'userCount', width: 90 },
  { title: '更新时间', dataIndex: 'updatedAt', width: 180, sortKey: 'updatedAt', relativeTime: true },
];

const fields: FieldConfig[] = [
  { name: 'name', label: '角色名称', kind: 'text', required: true, max: 32 },
  { name: 'remark', label: '备注', kind: 'textarea', max: 200 },
  { name: 'state', label: '状态', kind: 'switch', dict: 'state' },
];

export default function SysRoleScreen() {
  const [granting, setGranting] = useState<RoleRow | null>(null);
  const [showingUsers, setShowingUsers] = useState<RoleRow | null>(null);
  return (
    <>
      <ListScreen
        view="sys/role"
        noun="角色"
        useInquire={useInquireRolesQuery}
        filters={filters}
        columns={columns}
        fields={fields}
        createDefaults={{ remark: '', state: 1 }}
        create={{ useMutation: useCreateRoleMutation }}
        edit={{ useMutation: useEditRoleMutation }}
        exportTo={{ endpoint: '/sys/role/export', fileName: '角色列表.xlsx' }}
        rowActions={(role) => (
          <>
            <Button type="link" size="small" onClick={() => setGranting(role)}>
              授权
            </Button>
            <Button type="link" size="small" onClick={() => setShowingUsers(role)}>
              用户
            </Button>
          </>
        )}
      />
      {granting && <RoleGrantDialog role={granting} onClose={() => setGranting(null)} />}
      {showingUsers && <RoleUsersDialog role={showingUsers} onClose={() => setShowingUsers(null)} />}
    </>
  );
}
