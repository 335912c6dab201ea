/**
 * The shell (sys/layout): sidebar, header and the routed screen. Its child routes come from the
 * authorised menu, fetched afresh on load; unmatched paths show the unknown screen.
 */
import { Layout } from 'antd';
import { Suspense } from 'react';
import { useSelector } from 'react-redux';
import { Route, Routes, useLocation } from 'react-router-dom';

import { PageSpin } from '../../../components/page-spin';
// dayjs is only used by the screens: setting its locale here keeps it off the login route.
import '../../../lib/dayjs';
import { DEFAULT_VIEW, UNKNOWN_VIEW, type ViewRegistry } from '../../../config/views';
import { selectMenu, useAuthorityQuery } from '../../session';
import './layout.css';
import { selectShellRoutes } from './routes';
import { SideMenu } from './side-menu';
import { UserMenu } from './user-menu';

interface ShellProps {
  views: ViewRegistry;
}

export default function Shell({ views }: ShellProps) {
  const { isLoading } = useAuthorityQuery();
  const location = useLocation();
  const menu = useSelector(selectMenu);
  const routes = useSelector(selectShellRoutes);
  const indexRoute = routes.find((route) => route.view === DEFAULT_VIEW) ?? routes[0];
  const IndexView = views[indexRoute?.view ?? UNKNOWN_VIEW];
  const UnknownView = views[UNKNOWN_VIEW];

  return (
    <Layout className="shell">
      <Layout.Sider width={208} className="shell-sider">
        <div className="shell-brand">酒店后台管理系统</div>
        <SideMenu menu={menu} indexKey={indexRoute?.key ?? DEFAULT_VIEW} />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="shell-header">
          <UserMenu />
        </Layout.Header>
        <Layout.Content className="shell-content">
          {isLoading ? (
            <PageSpin />
          ) : (
            // Navigations run as transitions, which keep an already shown boundary on screen while
            // the next view's chunk loads; a boundary per path shows the spinner instead.
            <Suspense key={location.pathname} fallback={<PageSpin />}>
              <Routes>
                <Route index element={<IndexView />} />
                {routes.map((route) => {
                  const View = views[route.view];
                  return <Route key={route.key} path={route.key} element={<View />} />;
                })}
                <Route path="*" element={<UnknownView />} />
              </Routes>
            </Suspense>
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
