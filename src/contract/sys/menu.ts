/** Menus (sys/menu). A menu in state 1 with a path and an element becomes a route of the shell. */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned } from '../common';
import { post } from '../endpoint';

export const MENU_PATH_PATTERN = '^(/[a-z][a-z0-9-]*){1,4}$|^$';
export const ELEMENT_PATTERN = '^[a-z][a-z0-9-]*(/[a-z][a-z0-9-]*){0,3}$|^$';

export interface MenuNode {
  id: number;
  pid: number | null;
  name: string;
  path: string;
  element: string;
  icon: string;
  sort: number;
  state: number;
  isAuth: number;
  version: number;
  createdAt: number;
  updatedAt: number;
  children?: MenuNode[];
}

const menuRecordFields = {
  id: Type.Integer(),
  pid: field.nullable(Type.Integer()),
  name: Type.String(),
  path: Type.String(),
  element: Type.String(),
  icon: Type.String(),
  sort: Type.Integer(),
  state: Type.Integer(),
  isAuth: Type.Integer(),
  version: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
};
export const MenuRecord = Type.Object(menuRecordFields);
/** Without filters, a page holds top-level menus with their descendants under `children`. */
export const MenuTreeRecord = Type.Recursive((Self) =>
  Type.Object({ ...menuRecordFields, children: Type.Optional(Type.Array(Self)) }),
);

export const MenuInquire = pagedRequest({
  name: Type.String({ title: '菜单名称', maxLength: 32 }),
  state: field.flag('状态'),
});

const menuFields = {
  pid: field.nullable(field.id('上级菜单')),
  name: field.text('菜单名称', 32),
  path: Type.String({ title: '路由路径', maxLength: 100, pattern: MENU_PATH_PATTERN, patternHint: '应形如 /sys/user' }),
  element: Type.String({ title: '视图', maxLength: 64, pattern: ELEMENT_PATTERN, patternHint: '应形如 sys/user' }),
  icon: Type.String({ title: '图标', maxLength: 40 }),
  sort: field.int('排序', 0, 9999),
  state: field.flag('状态'),
  isAuth: field.flag('是否需要授权'),
};
export const MenuCreation = Type.Object(menuFields, { additionalProperties: false });
export const MenuEdit = Type.Object({ id: field.id(), ...menuFields, ...versioned }, { additionalProperties: false });

export const menuEndpoints = {
  '/sys/menu/inquire': post(MenuInquire, paged(MenuTreeRecord)),
  '/sys/menu/creation': post(MenuCreation, MenuRecord),
  '/sys/menu/edit': post(MenuEdit, MenuRecord),
};
