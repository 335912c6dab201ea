/**
 * 授权: every menu with its resources as one tree (no paging), ticked where the role holds them; a
 * menu with some of its resources ticked shows half-ticked. A search box narrows the tree without
 * losing ticks outside it. 保存 sends only the difference to what the role held when the dialog
 * opened. The built-in role holds everything by definition, so it is shown all ticked and cannot
 * be edited.
 */
import { CaretDownOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Modal, Spin, Tree, type TreeDataNode } from 'antd';
import { useMemo, useState } from 'react';

import { PAGE_SIZE_MAX } from '../../../../contract/constants';
import { toast } from '../../../lib/toast';
import { useMenuResourcesQuery, useRoleAuthQuery, useSaveRoleAuthMutation } from './api';
import type { RoleRow } from './config';
import { filterTree, grantDiff, grantTree, nodesByKey, toGrantSet, toggleNode, treeChecks, type GrantKey, type GrantNode } from './grant-set';

interface RoleGrantDialogProps {
  role: RoleRow;
  onClose: () => void;
}

const NOTHING_HELD: ReadonlySet<GrantKey> = new Set();

const toTreeData = (nodes: readonly GrantNode[]): TreeDataNode[] => nodes.map((node) => ({ key: node.key, title: node.title, children: toTreeData(node.children) }));

export function RoleGrantDialog({ role, onClose }: RoleGrantDialogProps) {
  const builtin = role.builtin === 1;
  // Every menu at once: the catalogue has a few dozen menus, well under one page's limit.
  const menus = useMenuResourcesQuery({ size: PAGE_SIZE_MAX, current: 1 });
  const auth = useRoleAuthQuery({ roleId: role.id }, { skip: builtin, refetchOnMountOrArgChange: true });
  const held = useMemo(() => (auth.data ? toGrantSet(auth.data) : NOTHING_HELD), [auth.data]);
  const tree = useMemo(() => grantTree(menus.data?.records ?? []), [menus.data]);
  const nodes = useMemo(() => nodesByKey(tree), [tree]);
  const [search, setSearch] = useState('');
  const shown = useMemo(() => toTreeData(filterTree(tree, search)), [tree, search]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  // The user's ticks, once they start; until then the dialog shows what the role holds.
  const [edited, setEdited] = useState<ReadonlySet<GrantKey> | null>(null);
  const selected = edited ?? held;
  const diff = grantDiff(held, selected);
  const changed = diff.grant.length + diff.revoke.length > 0;
  const [saveRoleAuth, saving] = useSaveRoleAuthMutation();

  const checks = builtin ? { checked: [...nodes.keys()], halfChecked: [] } : treeChecks(tree, selected);
  const expandedKeys = [...nodes.values()].filter((node) => node.children.length > 0 && !collapsed.has(node.key)).map((node) => node.key);

  const save = async () => {
    const envelope = await saveRoleAuth({ roleId: role.id, ...diff })
      .unwrap()
      .catch(() => null);
    if (!envelope) return;
    toast.success(envelope.msg);
    onClose();
  };

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
    <Modal open title={`授权：${role.name}`} width={640} onCancel={onClose} footer={footer}>
      {builtin ? (
        <Alert type="info" showIcon title="内置角色拥有全部权限，无需授权" style={{ marginBottom: 12 }} />
      ) : (
        <Alert type="info" showIcon title="勾选某个资源时，保存后该角色也能看到它所在的菜单；取消菜单下全部资源即收回该菜单。" style={{ marginBottom: 12 }} />
      )}
      <Input.Search
        allowClear
        placeholder="搜索菜单或资源"
        aria-label="搜索菜单或资源"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        style={{ marginBottom: 12 }}
      />
      <Spin spinning={menus.isFetching || auth.isFetching}>
        <div style={{ maxHeight: '60vh', overflow: 'auto' }}>
          <Tree
            checkable
            checkStrictly
            selectable={false}
            // Hidden from assistive technology so each tick box is named by its menu or resource alone.
            switcherIcon={<CaretDownOutlined aria-hidden />}
            disabled={builtin}
            treeData={shown}
            checkedKeys={checks}
            expandedKeys={expandedKeys}
            onExpand={(_, info) =>
              setCollapsed((before) => {
                const next = new Set(before);
                if (info.expanded) next.delete(String(info.node.key));
                else next.add(String(info.node.key));
                return next;
              })
            }
            onCheck={(_, info) => {
              const node = nodes.get(info.node.key as GrantKey);
              if (node) setEdited(toggleNode(tree, selected, node, info.checked));
            }}
          />
        </div>
      </Spin>
    </Modal>
  );
}
