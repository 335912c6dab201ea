/**
 * 授权: the menus with their resources, checked where the role holds them. Checking a menu checks
 * its resources. 保存 sends only the difference to what the role held when the dialog opened. The
 * built-in role holds everything by definition, so it is shown all checked and cannot be edited.
 */
import { Alert, Button, Checkbox, Flex, Modal, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';

import { ROLE_PERMISSION_PAGE_SIZE } from '../../../../contract/constants';
import { toast } from '../../../lib/toast';
import { useMenuResourcesQuery, useRoleAuthQuery, useSaveRoleAuthMutation } from './api';
import type { RoleRow } from './config';
import { grantDiff, menuKey, resourceKey, toGrantSet, toggleKey, toggleMenu, type GrantKey, type MenuWithResources } from './grant-set';

interface RoleGrantDialogProps {
  role: RoleRow;
  onClose: () => void;
}

const NOTHING_HELD: ReadonlySet<GrantKey> = new Set();

export function RoleGrantDialog({ role, onClose }: RoleGrantDialogProps) {
  const builtin = role.builtin === 1;
  const [current, setCurrent] = useState(1);
  const menus = useMenuResourcesQuery({ size: ROLE_PERMISSION_PAGE_SIZE, current });
  const auth = useRoleAuthQuery({ roleId: role.id }, { skip: builtin, refetchOnMountOrArgChange: true });
  const held = useMemo(() => (auth.data ? toGrantSet(auth.data) : NOTHING_HELD), [auth.data]);
  // The user's ticks, once they start; until then the dialog shows what the role holds.
  const [edited, setEdited] = useState<ReadonlySet<GrantKey> | null>(null);
  const selected = edited ?? held;
  const diff = grantDiff(held, selected);
  const changed = diff.grant.length + diff.revoke.length > 0;
  const [saveRoleAuth, saving] = useSaveRoleAuthMutation();

  const isChecked = (key: GrantKey) => builtin || selected.has(key);

  const save = async () => {
    const envelope = await saveRoleAuth({ roleId: role.id, ...diff })
      .unwrap()
      .catch(() => null);
    if (!envelope) return;
    toast.success(envelope.msg);
    onClose();
  };

  const columns: TableColumnsType<MenuWithResources> = [
    {
      title: '菜单',
      key: 'menu',
      width: 220,
      render: (_, menu) => (
        <Checkbox checked={isChecked(menuKey(menu.id))} disabled={builtin} onChange={(event) => setEdited(toggleMenu(selected, menu, event.target.checked))}>
          {menu.name}
        </Checkbox>
      ),
    },
    {
      title: '资源',
      key: 'resources',
      render: (_, menu) =>
        menu.resources.length === 0 ? (
          <Typography.Text type="secondary">无资源</Typography.Text>
        ) : (
          <Space wrap size={[12, 4]}>
            {menu.resources.map((resource) => (
              <Checkbox
                key={resource.id}
                checked={isChecked(resourceKey(resource.id))}
                disabled={builtin}
                onChange={(event) => setEdited(toggleKey(selected, resourceKey(resource.id), event.target.checked))}
              >
                {resource.name}
              </Checkbox>
            ))}
          </Space>
        ),
    },
  ];

  const footer = builtin ? (
    <Button onClick={onClose}>关闭</Button>
  ) : (
    <Flex justify="end" gap={8}>
      <Button onClick={onClose}>取消</Button>
      <Button type="primary" loading={saving.isLoading} disabled={!changed} onClick={save}>
        保存
      </Button>
    </Flex>
  );

  return (
    <Modal open title={`授权：${role.name}`} width={860} onCancel={onClose} footer={footer}>
      {builtin && <Alert type="info" showIcon title="内置角色拥有全部权限，无需授权" style={{ marginBottom: 12 }} />}
      <Table<MenuWithResources>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={menus.data?.records}
        loading={menus.isFetching || auth.isFetching}
        pagination={{
          current,
          pageSize: ROLE_PERMISSION_PAGE_SIZE,
          total: menus.data?.total,
          showSizeChanger: false,
          onChange: setCurrent,
        }}
      />
    </Modal>
  );
}
