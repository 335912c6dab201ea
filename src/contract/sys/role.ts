/** Roles (sys/role): the role itself, its grants (auth bindings) and its users. */
import { Type } from '@sinclair/typebox';
import { field, pageFields, pagedRequest, paged, versioned, listExport } from '../common';
import { download, get, post, acts, reads, scoped } from '../endpoint';
import { DATA_SCOPES } from '../constants';
import { ResourceRecord } from './resource';
import { UserRecord } from './user';

export const RoleRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  remark: Type.String(),
  state: Type.Integer(),
  /** 1 for the built-in administrator role, which holds every grant and cannot be disabled. */
  builtin: Type.Integer(),
  /** Which rows its users see (DATA_SCOPES); `custom` names the units in scopeOrgIds. */
  dataScope: Type.String(),
  scopeOrgIds: Type.Array(Type.Integer()),
  userCount: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
  version: Type.Integer(),
});

export const ROLE_SORT_KEYS = ['name', 'state', 'createdAt', 'updatedAt'] as const;

export const RoleInquire = pagedRequest(
  {
    name: field.note('角色名称', 32),
    state: field.flag('状态'),
  },
  ROLE_SORT_KEYS,
);

export const DataScopeSchema = Type.Union(
  DATA_SCOPES.map((scope) => Type.Literal(scope)),
  { title: '数据范围' },
);

const roleFields = {
  name: field.text('角色名称', 32),
  remark: field.remark(),
  state: field.flag('状态'),
  /** Absent: all on creation, unchanged on edit. */
  dataScope: Type.Optional(DataScopeSchema),
  /** The units of a custom scope, each with its subtree; ignored for the other scopes. */
  scopeOrgIds: Type.Optional(Type.Array(field.id('指定单位'), { title: '指定单位', maxItems: 1000, uniqueItems: true })),
};
export const RoleCreation = Type.Object(roleFields, { additionalProperties: false });
export const RoleEdit = Type.Object({ id: field.id(), ...roleFields, ...versioned }, { additionalProperties: false });

/** A grant: type `menu` names a menu id, type `resource` names a resource id. */
export const AUTH_TYPES = ['menu', 'resource'] as const;
export const AuthItem = Type.Object(
  {
    type: Type.Union([Type.Literal('menu'), Type.Literal('resource')], { title: '授权类型' }),
    resource: field.id('授权对象'),
  },
  { additionalProperties: false },
);

/** Grants and revocations are applied together in one transaction, or not at all. */
export const RoleAuthBody = Type.Object(
  {
    roleId: field.id('角色'),
    grant: Type.Array(AuthItem, { title: '授予', maxItems: 1000 }),
    revoke: Type.Array(AuthItem, { title: '撤销', maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export const RoleAuthQuery = Type.Object({ roleId: field.id('角色') }, { additionalProperties: false });

export const MenuWithResources = Type.Object({
  id: Type.Integer(),
  pid: field.nullable(Type.Integer()),
  name: Type.String(),
  path: Type.String(),
  element: Type.String(),
  resources: Type.Array(ResourceRecord),
});

export const MenuResourcesInquire = pagedRequest({
  name: field.note('菜单名称', 32),
});

export const RoleUserBody = Type.Object({ userId: field.id('用户'), roleId: field.id('角色') }, { additionalProperties: false });

/**
 * The users of a role (`member` 1, the default) or the users who could be bound to it (`member`
 * 0: everyone outside the role). Guarded by the role menu, so managing a role's users does not
 * need the user-management grant as well.
 */
export const RoleUserInquire = Type.Object(
  {
    ...pageFields(10),
    params: Type.Object(
      {
        roleId: field.id('角色'),
        member: Type.Optional(field.flag('是否成员')),
        userName: Type.Optional(field.note('用户名', 32)),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const roleEndpoints = {
  '/sys/role/inquire': post(RoleInquire, paged(RoleRecord), reads),
  '/sys/role/creation': post(RoleCreation, RoleRecord, acts('role')),
  '/sys/role/edit': post(RoleEdit, RoleRecord, acts('role')),
  '/sys/role/export': download(listExport(RoleInquire)),
  '/sys/menu/resources': post(MenuResourcesInquire, paged(MenuWithResources), reads),
  '/sys/role/auth': post(RoleAuthBody, Type.Array(AuthItem), acts('role', 'body.roleId')),
  'GET /sys/role/auth': get(RoleAuthQuery, Type.Array(AuthItem), reads),
  '/sys/role/user/inquire': scoped('user', post(RoleUserInquire, paged(UserRecord), reads)),
  '/sys/role/bind/user': scoped('user', post(RoleUserBody, Type.Null(), acts('user', 'body.userId'))),
  '/sys/role/unbind/user': scoped('user', post(RoleUserBody, Type.Null(), acts('user', 'body.userId'))),
};
