/** 资源: the resources of one menu, 20 per page, with their own add and edit dialogs. */
import { Drawer } from 'antd';
import { useMemo } from 'react';

import type { BodyOf } from '../../../../contract';
import { ListScreen, type PagedQueryHook } from '../../../components/list-screen';
import { useCreateResourceMutation, useEditResourceMutation, useInquireMenuResourcesQuery } from './api';
import type { MenuRow } from './config';
import { resourceColumns, resourceDefaults, resourceFields, resourceFromForm, resourceToForm, type ResourceRow } from './resource-config';

// Typed once here: the block cannot infer a paged query's argument from a generic RTK hook.
const useResourcePage: PagedQueryHook<BodyOf<'/sys/resource/menu/inquire'>, ResourceRow> = useInquireMenuResourcesQuery;

interface ResourceDrawerProps {
  menu: MenuRow;
  onClose: () => void;
}

export function ResourceDrawer({ menu, onClose }: ResourceDrawerProps) {
  const fixedParams = useMemo(() => ({ menuId: menu.id }), [menu.id]);
  const fromForm = useMemo(() => resourceFromForm(menu.id), [menu.id]);
  return (
    <Drawer open title={`菜单资源：${menu.name}`} size={900} onClose={onClose}>
      <ListScreen
        view="sys/menu"
        noun="资源"
        useInquire={useResourcePage}
        fixedParams={fixedParams}
        columns={resourceColumns}
        fields={resourceFields}
        createDefaults={resourceDefaults}
        toForm={resourceToForm}
        fromForm={fromForm}
        create={{ useMutation: useCreateResourceMutation, resource: 'api_resourceCreation' }}
        edit={{ useMutation: useEditResourceMutation, resource: 'api_resourceEdit' }}
      />
    </Drawer>
  );
}
