/** The shell's sidebar as a person uses it. */
import { expect, type Locator, type Page } from '@playwright/test';

export const sidebar = (page: Page): Locator => page.getByRole('navigation').or(page.locator('.ant-layout-sider')).first();

/** Clicks a child menu item, opening its parent first when it is folded. */
export async function openMenu(page: Page, parent: string, child: string): Promise<void> {
  const item = page.getByRole('menuitem', { name: child, exact: true });
  if (!(await item.isVisible())) await page.getByRole('menuitem', { name: parent, exact: true }).click();
  await item.click();
}

/** The names of the selected item and of the open submenus. */
export async function menuState(page: Page): Promise<{ selected: string[]; open: string[] }> {
  const menu = page.locator('.ant-menu').first();
  await expect(menu).toBeVisible();
  const selected = await menu.locator('.ant-menu-item-selected').allInnerTexts();
  const open = await menu.locator('.ant-menu-submenu-open > .ant-menu-submenu-title').allInnerTexts();
  return { selected: selected.map((t) => t.trim()), open: open.map((t) => t.trim()) };
}
