/**
 * The sidebar's toggles against a navigation still rendering: the router commits a navigation in
 * a transition, so the browser is already at the new entry while the old screen shows. A submenu
 * opened in that moment stays open when the screen arrives; the next navigation recomputes it.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, use } from 'react';
import { createBrowserRouter, Outlet, RouterProvider } from 'react-router-dom';

import { SideMenu } from '../../../src/client/features/sys/layout/side-menu';
import { adminMenu } from '../testing/handlers';

jest.setTimeout(30_000);

/** A screen that renders once its gate opens: its navigation stays pending until then. */
function gatedScreen(label: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  function Screen() {
    use(gate);
    return <div>{label}</div>;
  }
  return { Screen, open };
}

/**
 * A click while the screen suspends, in an act that is awaited: React then parks the suspended render
 * until the gate opens. user-event's own act is never awaited (React warns that a component suspended
 * in it), and user-event inside an outer act steps out of React's act environment (React warns too).
 */
async function clickInAwaitedAct(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
    await Promise.resolve();
  });
}

const submenu = (name: string) => screen.getByRole('menuitem', { name: new RegExp(`${name}$`) });

it('keeps a submenu opened while a navigation renders, and recomputes on the next one', async () => {
  window.history.replaceState(null, '', '/sys/panel');
  const user = userEvent.setup();
  const slowUserScreen = gatedScreen('用户列表');
  const router = createBrowserRouter([
    {
      path: '/',
      element: (
        <>
          <SideMenu menu={adminMenu} indexKey="sys/panel" />
          {/* A boundary already showing content: a suspending screen holds the old one in a transition. */}
          <Suspense fallback={<div>加载中</div>}>
            <Outlet />
          </Suspense>
        </>
      ),
      children: [
        { path: 'sys/panel', element: <div>控制台内容</div> },
        { path: 'sys/user', element: <slowUserScreen.Screen /> },
        { path: 'hotel/device', element: <div>设备列表</div> },
      ],
    },
  ]);
  render(<RouterProvider router={router} />);
  await screen.findByText('控制台内容');
  expect(submenu('系统管理')).toHaveAttribute('aria-expanded', 'true');
  expect(submenu('酒店管理')).toHaveAttribute('aria-expanded', 'false');

  await clickInAwaitedAct(screen.getByRole('menuitem', { name: /用户管理$/ }));
  // The browser is at /sys/user; the screen is still rendering, the old one still shows.
  await waitFor(() => expect(window.location.pathname).toBe('/sys/user'));
  expect(screen.getByText('控制台内容')).toBeInTheDocument();

  await clickInAwaitedAct(submenu('酒店管理'));
  expect(submenu('酒店管理')).toHaveAttribute('aria-expanded', 'true');

  await act(() => {
    slowUserScreen.open();
    return Promise.resolve();
  });
  await screen.findByText('用户列表');
  expect(submenu('酒店管理')).toHaveAttribute('aria-expanded', 'true');
  expect(submenu('系统管理')).toHaveAttribute('aria-expanded', 'true');

  // The next navigation recomputes the open submenus from its path, and so does going back.
  await user.click(screen.getByRole('menuitem', { name: /设备管理$/ }));
  await screen.findByText('设备列表');
  expect(submenu('系统管理')).toHaveAttribute('aria-expanded', 'false');
  expect(submenu('酒店管理')).toHaveAttribute('aria-expanded', 'true');
  await act(() => router.navigate(-1));
  await screen.findByText('用户列表');
  expect(submenu('系统管理')).toHaveAttribute('aria-expanded', 'true');
  expect(submenu('酒店管理')).toHaveAttribute('aria-expanded', 'false');
});
