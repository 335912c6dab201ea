/** The login screen (/sys/verify). */
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';

import type { BodyOf } from '../../../../contract';
import { loggedIn, sessionApi, useLoginMutation } from '../../session';
import { redirectAfterLogin } from '../../session/redirect';
import './verify.css';

type Credentials = BodyOf<'/sys/user/verify'>;

export default function Verify() {
  const [login] = useLoginMutation();
  const [fetchAuthority] = sessionApi.useLazyAuthorityQuery();
  const [submitting, setSubmitting] = useState(false);
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const location = useLocation();

  async function signIn(credentials: Credentials) {
    setSubmitting(true);
    try {
      const result = await login(credentials);
      if (result.error) return;
      const { token, userName, nickName, menu } = result.data.data;
      dispatch(loggedIn({ token, userName, nickName, menu }));
      // The menu is always read afresh after signing in; the shell then finds it in the cache.
      await fetchAuthority();
      navigate(redirectAfterLogin(location.state), { replace: true });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <main className="verify">
      <section className="verify-panel">
        <h1 className="verify-title">酒店后台管理系统</h1>
        <Form<Credentials> name="verify" size="large" onFinish={signIn} autoComplete="on">
          <Form.Item name="userName" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input prefix={<UserOutlined />} placeholder="用户名" autoComplete="username" aria-label="用户名" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" aria-label="密码" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            登录
          </Button>
        </Form>
      </section>
    </main>
  );
}
