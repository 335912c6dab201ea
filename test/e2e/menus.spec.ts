/** 菜单管理 (sys/menu): list, add, edit, and the resources under a menu. */
import { uniq } from './support/api';
import { expect, test } from './support/fixtures';
import { callDuring, choose, control, dialog, expectToast, fill, openScreen, row, rowAction, saveDialog } from './support/list-screen';

const screen = { parent: '系统管理', child: '菜单管理', inquire: '/sys/menu/inquire' };

test('menus: add and edit a menu, then add and edit a resource under it', async ({ page, signIn, shot }) => {
  await signIn(page);
  expect(await openScreen(page, screen)).toMatchObject({ size: 20, current: 1 });
  await expect(row(page, '系统管理').first()).toBeVisible();
  await shot(page, 'menus');

  const name = uniq('报表');
  const path = `/${uniq('report')}`;
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const add = dialog(page, '新增菜单');
  await fill(add, { 菜单名称: name, 路由路径: path });
  const created = await saveDialog(page, add, '/sys/menu/creation', screen.inquire);
  // isAuth travels as 1 or 0 (docs/api/system.md, menus); it stays 1 here so restricted users of other tests never see it.
  expect(created.body).toMatchObject({ name, path, pid: null, isAuth: 1 });
  await expectToast(page, created.envelope.msg);
  await expect(row(page, name)).toContainText(path);

  await rowAction(page, name, '编辑');
  const edit = dialog(page, '编辑菜单');
  await control(edit, '排序').fill('42');
  const edited = await saveDialog(page, edit, '/sys/menu/edit', screen.inquire);
  expect(edited.body).toMatchObject({ sort: 42 });
  await expectToast(page, edited.envelope.msg);
  await expect(row(page, name)).toContainText('42');

  // Resources of the menu, in a drawer of their own.
  const listed = await callDuring(page, '/sys/resource/menu/inquire', () => rowAction(page, name, '资源'));
  const menuId = (created.envelope.data as { id: number }).id;
  expect(listed.body).toMatchObject({ size: 20, current: 1, params: { menuId } });
  const drawer = dialog(page, `菜单资源：${name}`);
  await drawer.getByRole('button', { name: /新\s*增/ }).click();
  const addResource = dialog(page, '新增资源');
  await fill(addResource, { 资源名称: '导出报表', 资源标识: 'export' });
  await choose(page, addResource, '资源类别', /button/);
  const resource = await saveDialog(page, addResource, '/sys/resource/creation', '/sys/resource/menu/inquire');
  // docs/api/system.md (resources): field_type is joined to type with an underscore and not sent on its own.
  expect(resource.body).toMatchObject({ menuId, name: '导出报表', type: 'button_export' });
  expect(resource.body).not.toHaveProperty('field_type');
  await expectToast(page, resource.envelope.msg);
  await expect(row(drawer, '导出报表')).toContainText('button_export');

  await rowAction(drawer, '导出报表', '编辑');
  const editResource = dialog(page, '编辑资源');
  await expect(control(editResource, '资源标识')).toHaveValue('export');
  await fill(editResource, { 资源名称: '导出月报' });
  const resourceEdited = await saveDialog(page, editResource, '/sys/resource/edit', '/sys/resource/menu/inquire');
  expect(resourceEdited.body).toMatchObject({ name: '导出月报', type: 'button_export' });
  await expectToast(page, resourceEdited.envelope.msg);
  await expect(row(drawer, '导出月报')).toBeVisible();
  await shot(page, 'menu-resources');
});
