/**
 * Sign-in (verify, the login view's name: sys/verify), sign-out, own password and the authorised
 * menu: the calls of a signed-in session's life (docs/api/session.md).
 */
import { Type } from '@sinclair/typebox';
import { Empty, field } from '../common';
import { acts, get, post, postEmpty, reads } from '../endpoint';
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
  /**
   * The types of this menu's resources the role holds (e.g. api_export), so a screen can hide what
   * the server would refuse. Added to the original spec's shape (docs/api/session.md); absent means
   * unknown (show, the server decides).
   */
  granted: Type.Optional(Type.Array(Type.String())),
});

export const LoginBody = Type.Object(
  {
    userName: field.note('用户名', 64, { min: 1 }),
    password: field.secret('密码', 1, 128),
  },
  { additionalProperties: false },
);

export const LoginData = Type.Object({
  role: Type.Object({ id: Type.Integer(), name: Type.String() }),
  menu: Type.Array(AuthorityMenu),
  token: Type.String({ secret: true }),
  userName: Type.String(),
  nickName: Type.String(),
});

export const passwordField = (title: string) => field.secret(title, PASSWORD_MIN, PASSWORD_MAX);

export const PasswordChangeBody = Type.Object(
  {
    oldPassword: field.secret('原密码', 1, 128),
    newPassword: passwordField('新密码'),
  },
  { additionalProperties: false },
);

/**
 * What this server is configured to do, so screens offer only what can work (e.g. 重启 needs
 * MQTT). Any signed-in user may ask; it says nothing about the configuration beyond these flags.
 */
export const CapabilitiesData = Type.Object({
  /** Remote commands to devices can be sent (MQTT is configured). */
  mqtt: Type.Boolean(),
});

export const verifyEndpoints = {
  // Sign-in attempts are recorded in the login log, not the operation log.
  '/sys/user/verify': post(LoginBody, LoginData, { kind: 'none' }),
  '/sys/user/logout': postEmpty(Empty, acts('user', 'self', '退出登录')),
  '/sys/user/password': post(PasswordChangeBody, Empty, acts('user', 'self', '修改密码')),
  'GET /sys/menu/authority': get(null, Type.Array(AuthorityMenu), reads),
  'GET /sys/capabilities': get(null, CapabilitiesData, reads),
};
