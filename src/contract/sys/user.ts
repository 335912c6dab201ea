/** Users (sys/user). The password travels only on creation, reset and own change. */
import { Type } from '@sinclair/typebox';
import { BatchDone, batchState, field, pagedRequest, paged, versioned, IdBody, listExport, defaulted } from '../common';
import { download, post, postEmpty, upload, acts, actsOnEach, reads, scoped } from '../endpoint';
import { ImportQuery, ImportSummary } from '../list-import';
import { passwordField } from './verify';
import { USER_NAME_PATTERN } from '../constants';

const userName = () => field.note('用户名', 32, { min: 3, pattern: USER_NAME_PATTERN, patternHint: '只能包含字母、数字和 _ . @ -，长度 3-32' });

export const UserRecord = Type.Object({
  id: Type.Integer(),
  userName: Type.String(),
  nickName: Type.String(),
  state: Type.Integer(),
  roleId: field.nullable(Type.Integer()),
  roleName: field.nullable(Type.String()),
  /** The user's unit (sys/org). */
  orgId: field.nullable(Type.Integer()),
  orgName: field.nullable(Type.String()),
  createdAt: field.time(),
  updatedAt: field.time(),
  version: Type.Integer(),
});

export const USER_SORT_KEYS = ['userName', 'nickName', 'state', 'roleName', 'createdAt', 'updatedAt'] as const;

export const UserInquire = pagedRequest(
  {
    userName: field.note('用户名', 32),
    nickName: field.note('昵称', 32),
    state: field.flag('状态'),
    roleId: field.id('角色'),
    /** The unit and its subtree (the tree beside the list). */
    orgId: field.id('所属单位'),
  },
  USER_SORT_KEYS,
);

export const UserCreation = Type.Object(
  {
    userName: userName(),
    nickName: field.text('昵称', 32),
    password: passwordField('密码'),
    state: field.flag('状态'),
    roleId: defaulted(field.nullable(field.id('角色')), null),
    /** null: the creator's own unit. */
    orgId: defaulted(field.nullable(field.id('所属单位')), null),
  },
  { additionalProperties: false },
);

export const UserEdit = Type.Object(
  {
    id: field.id(),
    nickName: field.text('昵称', 32),
    state: field.flag('状态'),
    roleId: defaulted(field.nullable(field.id('角色')), null),
    /** null: stays in its unit. */
    orgId: defaulted(field.nullable(field.id('所属单位')), null),
    ...versioned,
  },
  { additionalProperties: false },
);

export const UserPasswordReset = Type.Object({ id: field.id(), password: passwordField('新密码') }, { additionalProperties: false });

/** One imported row, checked with the creation rules (the password is generated, not imported). */
export const UserImportRow = Type.Omit(UserCreation, ['password']);

/**
 * A role the caller may give a user: the user form's and the list filter's choices. Roles are
 * configuration, governed by function permission, so a user manager reads them here rather than
 * through the role screen's list.
 */
export const RoleChoice = Type.Object({ id: Type.Integer(), name: Type.String() });

export const userEndpoints = {
  '/sys/user/inquire': scoped('user', post(UserInquire, paged(UserRecord), reads)),
  '/sys/user/role/choices': postEmpty(Type.Array(RoleChoice), reads),
  '/sys/user/creation': scoped('user', post(UserCreation, UserRecord, acts('user'))),
  '/sys/user/edit': scoped('user', post(UserEdit, UserRecord, acts('user'))),
  '/sys/user/batch/state': scoped('user', post(batchState('用户'), BatchDone, actsOnEach('user', 'body.ids'))),
  '/sys/user/password/reset': scoped('user', post(UserPasswordReset, Type.Null(), acts('user'))),
  '/sys/user/detail': scoped('user', post(IdBody, UserRecord, reads)),
  '/sys/user/export': scoped('user', download(listExport(UserInquire))),
  '/sys/user/import/template': download(null, reads),
  '/sys/user/import': scoped('user', upload(ImportQuery, ImportSummary)),
};
