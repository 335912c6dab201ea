/** The header's account menu: the nickName, change password, sign out. */
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';

import { VERIFY_ROUTE } from '../../../config/views';
import { api } from '../../../lib/http/api';
import { loggedOut, selectNickName, useLogoutMutation } from '../../session';

// A dialog with a form, needed rarely: loaded on first use, not with the shell.
const PasswordDialog = lazy(() => import(/* webpackChunkName: "password-dialog" */ './password-dialog').then((module) => ({ default: module.PasswordDialog })));

const items: MenuProps['items'] = [{ key: 'password', label: '修改密码' }, { type: 'divider' }, { key: 'logout', label: '退出登录' }];

export function UserMenu() {
  const nickName = useSelector(selectNickName);
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [passwordUsed, setPasswordUsed] = useState(false);

  async function signOut() {
    // The server revokes the token first; whatever it answers, this browser forgets the session.
    await logout();
    dispatch(loggedOut());
    localStorage.clear();
    dispatch(api.util.resetApiState());
    void navigate(VERIFY_ROUTE, { replace: true });
  }

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'password') {
      setPasswordUsed(true);
      setPasswordOpen(true);
    }
    if (key === 'logout') void signOut();
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
        <button type="button" className="shell-user">
          <UserOutlined />
          <span>{nickName}</span>
          <DownOutlined />
        </button>
      </Dropdown>
      {passwordUsed && (
        <Suspense fallback={null}>
          <PasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
