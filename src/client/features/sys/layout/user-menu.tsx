/** The header's account menu: the nickName, change password, sign out. */
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSelector } from 'react-redux';

import { selectNickName } from '../../../lib/session';
import { useSignOut } from '../../session';

// A dialog with a form, needed rarely: loaded on first use, not with the shell.
const PasswordDialog = lazy(() => import(/* webpackChunkName: "password-dialog" */ './password-dialog').then((module) => ({ default: module.PasswordDialog })));

const items: MenuProps['items'] = [{ key: 'password', label: '修改密码' }, { type: 'divider' }, { key: 'logout', label: '退出登录' }];

export function UserMenu() {
  const nickName = useSelector(selectNickName);
  const signOut = useSignOut();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [passwordUsed, setPasswordUsed] = useState(false);

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
