/**
 * 菜单管理 (sys/menu): the menu tree on the shared list-screen block; 资源 opens the menu's
 * resources (the API paths, fields and buttons a role can be granted).
 */
import { Button } from 'antd';
import { useState } from 'react';

import { ListScreen, type FieldConfig } from '../../../components/list-screen';
import { useCreateMenuMutation, useEditMenuMutation, useInquireMenusQuery } from './api';
import { menuDefaults, menuFields, menuFromForm, menuToForm } from './form/menu-fields';
import { menuColumns } from './menu-columns';
import type { MenuRow } from './menu-row';
import { ResourceDrawer } from './resources/resource-drawer';

const filters: FieldConfig[] = [
  { name: 'name', label: '菜单名称', kind: 'text', max: 32 },
  { name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true },
];

export default function SysMenuScreen() {
  const [resourcesOf, setResourcesOf] = useState<MenuRow | null>(null);
  return (
    <>
      <ListScreen
        view="sys/menu"
        noun="菜单"
        useInquire={useInquireMenusQuery}
        filters={filters}
        columns={menuColumns}
        fields={menuFields}
        createDefaults={menuDefaults}
        toForm={menuToForm}
        fromForm={menuFromForm}
        create={{ useMutation: useCreateMenuMutation }}
        edit={{ useMutation: useEditMenuMutation }}
        rowActions={(menu) => (
          <Button type="link" size="small" onClick={() => setResourcesOf(menu)}>
            资源
          </Button>
        )}
      />
      {resourcesOf && <ResourceDrawer menu={resourcesOf} onClose={() => setResourcesOf(null)} />}
    </>
  );
}
