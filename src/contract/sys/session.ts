/** Sign-in, sign-out, own password, and the authorised menu (SPEC 7). */
import { Type } from '@sinclair/typebox';
import { Empty, field } from '../common';
import { get, post, postEmpty } from '../endpoint';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants';

export const AuthorityMenu = Type.Object({
  id: Type.Integer(),
  pid: field.nullable(Type.Integer()),
  name: Type.String(),
  path: Type.String(),
  element: Type.String(),
  icon: Type.String(),
  sort: Type.Integer(),
  state: Type.Integer(),
  isAuth: Type.Integer(),
});

export const LoginBody = Type.Object(
  {
    userName: Type.String({ title: '用户名', minLength: 1, maxLength: 64 }),
    password: Type.String({ title: '密码', minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);

export const LoginData = Type.Object({
  role: Type.Object({ id: Type.Integer(), name: Type.String() }),
  menu: Type.Array(AuthorityMenu),
  token: Type.String(),
  userName: Type.String(),
  nickName: Type.String(),
});

export const passwordField = (title: string) =>
  Type.String({ title, minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX });

export const PasswordChangeBody = Type.Object(
  {
    oldPassword: Type.String({ title: '原密码', minLength: 1, maxLength: 128 }),
    newPassword: passwordField('新密码'),
  },
  { additionalProperties: false },
);

export const sessionEndpoints = {
  '/sys/user/verify': post(LoginBody, LoginData),
  '/sys/user/logout': postEmpty(Empty),
  '/sys/user/password': post(PasswordChangeBody, Empty),
  'GET /sys/menu/authority': get(null, Type.Array(AuthorityMenu)),
};
