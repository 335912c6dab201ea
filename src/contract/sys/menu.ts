/** Menus (sys/menu). A menu in state 1 with a path and an element becomes a route of the shell. */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned, defaulted } from '../common';
import { acts, post, reads } from '../endpoint';

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
export const MenuTreeRecord = Type.Recursive((Self) => Type.Object({ ...menuRecordFields, children: Type.Optional(Type.Array(Self)) }));

/** Without filters a sort orders the top-level menus and, under each, the children. */
export const MENU_SORT_KEYS = ['name', 'path', 'sort', 'state'] as const;

export const MenuInquire = pagedRequest(
  {
    name: field.note('菜单名称', 32),
    state: field.flag('状态'),
  },
  MENU_SORT_KEYS,
);

const menuFields = {
  pid: defaulted(field.nullable(field.id('上级菜单')), null),
  name: field.text('菜单名称', 32),
  path: defaulted(field.note('路由路径', 100, { pattern: MENU_PATH_PATTERN, patternHint: '应形如 /sys/user' }), ''),
  element: defaulted(field.note('视图', 64, { pattern: ELEMENT_PATTERN, patternHint: '应形如 sys/user' }), ''),
  icon: defaulted(field.note('图标', 40), ''),
  sort: field.int('排序', 0, 9999),
  state: field.flag('状态'),
  isAuth: field.flag('是否需要授权'),
};
export const MenuCreation = Type.Object(menuFields, { additionalProperties: false });
export const MenuEdit = Type.Object({ id: field.id(), ...menuFields, ...versioned }, { additionalProperties: false });

export const menuEndpoints = {
  '/sys/menu/inquire': post(MenuInquire, paged(MenuTreeRecord), reads),
  '/sys/menu/creation': post(MenuCreation, MenuRecord, acts('menu')),
  '/sys/menu/edit': post(MenuEdit, MenuRecord, acts('menu')),
};
