/**
 * The shell (sys/layout): sidebar (a drawer on a phone), header with breadcrumb, the live
 * indicator and alarm badge (live/), menu search and account menu, the tab bar and the open tabs' screens. Its routes come from the authorised menu,
 * kept in local storage and fetched afresh on every load; unmatched paths show the unknown screen.
 */
import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Layout } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSelector } from 'react-redux';
import { useLocation } from 'react-router-dom';

import { PageSpin } from '../../../components/page-spin';
import { DEFAULT_VIEW, UNKNOWN_VIEW, type ViewRegistry } from '../../../config/views';
import { selectMenu } from '../../../lib/session';
import { useAuthorityQuery } from '../../session';
import { ShellBreadcrumb } from './breadcrumb';
import './layout.css';
import { MenuSearch } from './menu-search/menu-search';
import { selectShellRoutes } from './routes';
import { SideMenu } from './side-menu';
import { TabBar } from './tabs/tab-bar';
import { Pane } from './tabs/tab-panes';
import { useTabs } from './tabs/use-tabs';
import { usePhone, useSiderCollapsed } from './use-shell-layout';
import { UserMenu } from './user-menu';

// The live stream, its indicator and the alarm badge load after the shell has drawn.
const LiveConsole = lazy(() => import(/* webpackChunkName: "live" */ './live'));
// Only phones use the drawer: its code stays out of the shell's chunk.
const MenuDrawer = lazy(() => import(/* webpackChunkName: "shell-drawer" */ './menu-drawer'));

interface ShellProps {
  views: ViewRegistry;
}

const SIDER_WIDTH = 208;
const SIDER_COLLAPSED_WIDTH = 64;

function Brand({ short }: { short: boolean }) {
  return (
    <div className="shell-brand" title="酒店后台管理系统">
      <span className="shell-brand-mark" aria-hidden="true">
        酒
      </span>
      {!short && <span className="shell-brand-name">酒店后台管理系统</span>}
    </div>
  );
}

export default function Shell({ views }: ShellProps) {
  const location = useLocation();
  const menu = useSelector(selectMenu);
  // The menu kept from the last visit draws the shell at once; the authority answer replaces it.
  // Only a session without one (never the case after a sign-in) waits for the first answer.
  const waiting = useAuthorityQuery().isLoading && menu.length === 0;
  const routes = useSelector(selectShellRoutes);
  const indexRoute = routes.find((route) => route.view === DEFAULT_VIEW) ?? routes[0];
  const indexKey = indexRoute?.key ?? DEFAULT_VIEW;
  const { tabs, panes, activeKey, select, run } = useTabs(routes, indexRoute, menu);
  const phone = usePhone();
  const [collapsed, toggleCollapsed] = useSiderCollapsed();
  // The drawer stays open only on the page it was opened on: choosing a screen (or going back) puts it away.
  const [drawerOpenOn, setDrawerOpenOn] = useState<typeof location | null>(null);
  const drawerOpen = drawerOpenOn === location;
  const UnknownView = views[UNKNOWN_VIEW];

  return (
    <Layout className="shell" hasSider={!phone}>
      {phone ? (
        <Suspense fallback={null}>
          <MenuDrawer open={drawerOpen} width={SIDER_WIDTH + 32} onClose={() => setDrawerOpenOn(null)}>
            <Brand short={false} />
            <SideMenu menu={menu} indexKey={indexKey} />
          </MenuDrawer>
        </Suspense>
      ) : (
        <Layout.Sider width={SIDER_WIDTH} collapsedWidth={SIDER_COLLAPSED_WIDTH} collapsible collapsed={collapsed} trigger={null} className="shell-sider">
          <Brand short={collapsed} />
          <SideMenu menu={menu} indexKey={indexKey} collapsed={collapsed} />
        </Layout.Sider>
      )}
      <Layout className="shell-main">
        <Layout.Header className="shell-header">
          {phone ? (
            <Button type="text" icon={<MenuOutlined />} aria-label="打开菜单" onClick={() => setDrawerOpenOn(location)} />
          ) : (
            <Button type="text" icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} aria-label={collapsed ? '展开侧边栏' : '收起侧边栏'} onClick={toggleCollapsed} />
          )}
          {!phone && <ShellBreadcrumb menu={menu} indexKey={indexKey} />}
          <div className="shell-header-tools">
            <Suspense fallback={null}>
              <LiveConsole />
            </Suspense>
            <MenuSearch routes={routes} menu={menu} compact={phone} />
            <UserMenu />
          </div>
        </Layout.Header>
        {!waiting && <TabBar tabs={tabs} activeKey={activeKey} onSelect={select} onCommand={run} />}
        <Layout.Content className="shell-body">
          {waiting ? (
            <PageSpin />
          ) : (
            <>
              {panes.map((pane) => {
                const View = views[pane.view];
                return (
                  <Pane key={pane.id} active={pane.active}>
                    <View />
                  </Pane>
                );
              })}
              {activeKey === undefined && (
                <Pane key={`unknown:${location.pathname}`} active>
                  <UnknownView />
                </Pane>
              )}
            </>
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
