/** Users (sys/user). The password travels only on creation, reset and own change. */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned, IdBody } from '../common';
import { post } from '../endpoint';
import { passwordField } from './session';
import { USER_NAME_PATTERN } from '../constants';

const userName = () =>
  Type.String({
    title: '用户名',
    minLength: 3,
    maxLength: 32,
    pattern: USER_NAME_PATTERN,
    patternHint: '只能包含字母、数字和 _ . @ -，长度 3-32',
  });

export const UserRecord = Type.Object({
  id: Type.Integer(),
  userName: Type.String(),
  nickName: Type.String(),
  state: Type.Integer(),
  roleId: field.nullable(Type.Integer()),
  roleName: field.nullable(Type.String()),
  createdAt: field.time(),
  updatedAt: field.time(),
  version: Type.Integer(),
});

export const UserInquire = pagedRequest({
  userName: Type.String({ title: '用户名', maxLength: 32 }),
  nickName: Type.String({ title: '昵称', maxLength: 32 }),
  state: field.flag('状态'),
  roleId: field.id('角色'),
});

export const UserCreation = Type.Object(
  {
    userName: userName(),
    nickName: field.text('昵称', 32),
    password: passwordField('密码'),
    state: field.flag('状态'),
    roleId: field.nullable(field.id('角色')),
  },
  { additionalProperties: false },
);

export const UserEdit = Type.Object(
  {
    id: field.id(),
    nickName: field.text('昵称', 32),
    state: field.flag('状态'),
    roleId: field.nullable(field.id('角色')),
    ...versioned,
  },
  { additionalProperties: false },
);

export const UserPasswordReset = Type.Object(
  { id: field.id(), password: passwordField('新密码') },
  { additionalProperties: false },
);

export const userEndpoints = {
  '/sys/user/inquire': post(UserInquire, paged(UserRecord)),
  '/sys/user/creation': post(UserCreation, UserRecord),
  '/sys/user/edit': post(UserEdit, UserRecord),
  '/sys/user/password/reset': post(UserPasswordReset, Type.Null()),
  '/sys/user/detail': post(IdBody, UserRecord),
};
