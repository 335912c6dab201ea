/** Steps and readings the whole-app tests share: signing in on the login screen, the sidebar's keys. */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

export const user = userEvent.setup();

/** Fill an input in one event: typing key by key is too slow here for antd's controlled inputs. */
export async function fill(input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

export async function signIn(userName = 'admin', password = 'secret-pass') {
  await fill(await screen.findByLabelText('用户名'), userName);
  await fill(screen.getByLabelText('密码'), password);
  await user.click(screen.getByRole('button', { name: /登\s*录/ }));
}

/** Shown, not kept hidden in the pane of a tab in the background. */
export const isShown = (element: HTMLElement) => element.closest('[hidden]') === null;

export const findShown = async (text: string) => {
  await waitFor(() => expect(screen.getAllByText(text).filter(isShown)).toHaveLength(1));
  return screen.getAllByText(text).filter(isShown)[0];
};

export const selectedItem = () => document.querySelector('.ant-menu-item-selected')?.textContent;
export const openSubmenus = () => Array.from(document.querySelectorAll('.ant-menu-submenu-open > .ant-menu-submenu-title')).map((node) => node.textContent);
