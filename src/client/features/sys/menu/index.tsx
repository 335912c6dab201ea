/**
 * 菜单管理 (sys/menu): the menu tree on the shared list-screen block; 资源 opens the menu's
 * resources (the API paths, fields and buttons a role can be granted).
 */
import { Button } from 'antd';
import { useState } from 'react';

import { ListScreen, Permitted } from '../../../components/list-screen';
import { useCreateMenuMutation, useEditMenuMutation, useInquireMenusQuery } from './api';
import { menuColumns, menuDefaults, menuFields, menuFilters, menuFromForm, menuToForm, type MenuRow } from './config';
import { ResourceDrawer } from './resource-drawer';

export default function SysMenuScreen() {
  const [resourcesOf, setResourcesOf] = useState<MenuRow | null>(null);
  return (
    <>
      <ListScreen
        view="sys/menu"
        noun="菜单"
        useInquire={useInquireMenusQuery}
        filters={menuFilters}
        columns={menuColumns}
        fields={menuFields}
        createDefaults={menuDefaults}
        toForm={menuToForm}
        fromForm={menuFromForm}
        create={{ useMutation: useCreateMenuMutation }}
        edit={{ useMutation: useEditMenuMutation }}
        rowActions={(menu) => (
          <Permitted view="sys/menu" resource="api_resourcePage">
            <Button type="link" size="small" onClick={() => setResourcesOf(menu)}>
              资源
            </Button>
          </Permitted>
        )}
      />
      {resourcesOf && <ResourceDrawer menu={resourcesOf} onClose={() => setResourcesOf(null)} />}
    </>
  );
}
