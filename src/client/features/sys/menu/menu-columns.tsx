/** The menu tree's columns. A view name the app does not know is saved as typed and flagged here. */
import { Space, Tag } from 'antd';

import type { ColumnConfig } from '../../../components/list-screen';
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

export const menuColumns: ColumnConfig<MenuRow>[] = [
  { title: '菜单名称', dataIndex: 'name' },
  { title: '图标', dataIndex: 'icon', render: (icon: string) => (icon ? <MenuIconLabel name={icon} /> : null) },
  { title: '路由路径', dataIndex: 'path' },
  { title: '视图', dataIndex: 'element', render: (element: string) => <ViewName element={element} /> },
  { title: '排序', dataIndex: 'sort', width: 70 },
  { title: '状态', dataIndex: 'state', dict: 'state', width: 80 },
  { title: '授权', dataIndex: 'isAuth', dict: 'isAuth', width: 100 },
];
