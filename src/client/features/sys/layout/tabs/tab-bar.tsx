/**
 * The tab bar (多标签页): one tab per opened screen, the fixed index tab first. Each tab's context
 * menu (right click), and the menu button at the end of the bar for the active tab (touch screens
 * and keyboards have no right click): 刷新, 关闭, 关闭其他, 关闭右侧, 关闭全部.
 */
import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import type { ReactElement } from 'react';

import type { OpenTab, TabCommand } from './use-tabs';

interface TabBarProps {
  tabs: OpenTab[];
  activeKey: string | undefined;
  onSelect: (key: string) => void;
  onCommand: (command: TabCommand, key: string) => void;
}

function commandItems(tabs: OpenTab[], key: string): MenuProps['items'] {
  const index = tabs.findIndex((tab) => tab.key === key);
  const closable = tabs.filter((tab) => !tab.fixed);
  return [
    { key: 'refresh', label: '刷新' },
    { type: 'divider' },
    { key: 'close', label: '关闭', disabled: tabs[index]?.fixed !== false },
    { key: 'closeOthers', label: '关闭其他', disabled: closable.every((tab) => tab.key === key) },
    { key: 'closeRight', label: '关闭右侧', disabled: index < 0 || index === tabs.length - 1 },
    { key: 'closeAll', label: '关闭全部', disabled: closable.length === 0 },
  ];
}

export function TabBar({ tabs, activeKey, onSelect, onCommand }: TabBarProps) {
  const menuFor = (key: string): MenuProps => ({
    items: commandItems(tabs, key),
    onClick: ({ key: command }) => onCommand(command as TabCommand, key),
  });
  return (
    <Tabs
      className="shell-tabs"
      type="editable-card"
      size="small"
      hideAdd
      activeKey={activeKey ?? ''}
      onChange={onSelect}
      onEdit={(key, action) => {
        if (action === 'remove' && typeof key === 'string') onCommand('close', key);
      }}
      items={tabs.map((tab) => ({ key: tab.key, label: tab.title, closable: !tab.fixed }))}
      renderTabBar={(props, DefaultTabBar) => (
        <DefaultTabBar {...props}>
          {(node: ReactElement) => (
            <Dropdown key={node.key} trigger={['contextMenu']} menu={menuFor(String(node.key))}>
              {node}
            </Dropdown>
          )}
        </DefaultTabBar>
      )}
      tabBarExtraContent={
        activeKey && (
          <Dropdown trigger={['click']} menu={menuFor(activeKey)} placement="bottomRight">
            <Button type="text" size="small" icon={<DownOutlined />} aria-label="标签页操作" />
          </Dropdown>
        )
      }
    />
  );
}
