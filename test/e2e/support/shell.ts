/** The shell's sidebar as a person uses it. */
import { expect, type Locator, type Page } from '@playwright/test';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The sidebar (antd Menu in the Sider); the header's account dropdown is a menu too. */
export const sidebar = (page: Page): Locator => page.locator('.ant-layout-sider .ant-menu').first();

/** A sidebar item by its label (its accessible name also carries the icon's name, e.g. "user 用户管理"). */
export const menuItem = (page: Page, label: string): Locator => sidebar(page).getByRole('menuitem', { name: new RegExp(`(^|\\s)${escape(label)}$`) });

/** Clicks a child menu item, opening its parent first when it is folded. */
export async function openMenu(page: Page, parent: string, child: string): Promise<void> {
  // Decide by the parent's state, not the child's visibility: a folding animation may be running.
  const parentItem = menuItem(page, parent);
  if ((await parentItem.getAttribute('aria-expanded')) !== 'true') await parentItem.click();
  await expect(parentItem).toHaveAttribute('aria-expanded', 'true');
  // Then wait for the list to finish opening, as a person does. While it opens it is clipped, and
  // scrolling a child into view scrolls the clipped list: the item under the pointer changes between
  // press and release, and the click lands on the list instead of the item.
  await expect(parentItem.locator('xpath=following-sibling::ul[1]')).not.toHaveClass(/motion-collapse/);
  await menuItem(page, child).click();
}

/** Asserts (with retries) the labels of the selected item and, when given, of the open submenus. */
export async function expectMenuKeys(page: Page, keys: { selected: string[]; open?: string[] }): Promise<void> {
  const menu = sidebar(page);
  await expect(menu.locator('.ant-menu-item-selected')).toHaveText(keys.selected);
  if (keys.open) await expect(menu.locator('.ant-menu-submenu-open > .ant-menu-submenu-title')).toHaveText(keys.open);
}

/** The unknown (not found) screen inside the shell. */
export const unknownScreen = (page: Page): Locator => page.getByRole('main').getByText('页面不存在', { exact: true });

/** The screen on show: the shell keeps the other open tabs' screens mounted, hidden. */
export const shownScreen = (page: Page): Locator => page.locator('.shell-pane:not([hidden])');
