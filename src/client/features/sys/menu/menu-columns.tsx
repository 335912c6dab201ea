/** The menu tree's columns. A view name the app does not know is saved as typed and flagged here. */
import { Space, Tag } from 'antd';

import type { BodyOf } from '../../../../contract';
import type { ColumnConfig, SortKeyOf } from '../../../components/list-screen';
import { toViewName } from '../../../config/views';
import { MenuIconLabel } from './form/menu-controls';
import type { MenuRow } from './menu-row';

function ViewName({ element }: { element: string }) {
  if (element === '') return null;
  return (
    <Space size={4}>
      {element}
      {toViewName(element) !== element && <Tag color="warning">未知视图</Tag>}
    </Space>
  );
}

/** Sorting orders the top-level menus and, under each, its children (the server keeps the tree). */
export const menuColumns: ColumnConfig<MenuRow, SortKeyOf<BodyOf<'/sys/menu/inquire'>>>[] = [
  { title: '菜单名称', dataIndex: 'name', sortKey: 'name' },
  { title: '图标', dataIndex: 'icon', render: (icon: string) => (icon ? <MenuIconLabel name={icon} /> : null) },
  { title: '路由路径', dataIndex: 'path', sortKey: 'path' },
  { title: '视图', dataIndex: 'element', render: (element: string) => <ViewName element={element} /> },
  { title: '排序', dataIndex: 'sort', width: 70, sortKey: 'sort' },
  { title: '状态', dataIndex: 'state', dict: 'state', width: 80, sortKey: 'state' },
  { title: '授权', dataIndex: 'isAuth', dict: 'isAuth', width: 100 },
];
