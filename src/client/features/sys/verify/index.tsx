/**
 * The login screen (/sys/verify). Plain inputs with their own checks rather than antd Form: the
 * form machinery (field store, async validator, grid) would push the login route over its budget
 * (docs/client.md, Bundle budget). Above the form, why the server ended the last session, if it said.
 */
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import { useState, type FormEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';

import type { BodyOf } from '../../../../contract';
import { selectSession } from '../../../lib/session';
import { loggedIn, redirectAfterLogin, useLazyAuthorityQuery } from '../../session';
import { useLoginMutation } from './api';
import './verify.css';

type Credentials = BodyOf<'/sys/user/verify'>;
type FieldErrors = Partial<Record<keyof Credentials, string>>;

function checkCredentials({ userName, password }: Credentials): FieldErrors {
  const errors: FieldErrors = {};
  if (userName.trim() === '') errors.userName = '请输入用户名';
  if (password === '') errors.password = '请输入密码';
  return errors;
}

export default function Verify() {
  const [login] = useLoginMutation();
  const [fetchAuthority] = useLazyAuthorityQuery();
  const [credentials, setCredentials] = useState<Credentials>({ userName: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  // Why the server ended the last session (an administrator's force logout, expiry, ...).
  const notice = useSelector(selectSession).notice;

  function edit(field: keyof Credentials, value: string) {
    setCredentials((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = checkCredentials(credentials);
    setErrors(found);
    if (Object.keys(found).length > 0 || submitting) return;
    setSubmitting(true);
    try {
      const result = await login({ userName: credentials.userName.trim(), password: credentials.password });
      if (result.error) return;
      const { token, userName, nickName, menu } = result.data.data;
      dispatch(loggedIn({ token, userName, nickName, menu }));
      // The menu is always read afresh after signing in; the shell then finds it in the cache.
      await fetchAuthority();
      await navigate(redirectAfterLogin(location.state), { replace: true });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <main className="verify">
      <form className="verify-panel" onSubmit={signIn} noValidate>
        <h1 className="verify-title">酒店后台管理系统</h1>
        {notice && (
          <p className="verify-notice" role="alert">
            {notice.msg}
          </p>
        )}
        <div className="verify-field">
          <Input
            size="large"
            prefix={<UserOutlined />}
            placeholder="用户名"
            aria-label="用户名"
            autoComplete="username"
            status={errors.userName ? 'error' : ''}
            value={credentials.userName}
            onChange={(event) => edit('userName', event.target.value)}
          />
          <div className="verify-error" role="alert">
            {errors.userName}
          </div>
        </div>
        <div className="verify-field">
          <Input.Password
            size="large"
            prefix={<LockOutlined />}
            placeholder="密码"
            aria-label="密码"
            autoComplete="current-password"
            status={errors.password ? 'error' : ''}
            value={credentials.password}
            onChange={(event) => edit('password', event.target.value)}
          />
          <div className="verify-error" role="alert">
            {errors.password}
          </div>
        </div>
        <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
          登录
        </Button>
      </form>
    </main>
  );
}
