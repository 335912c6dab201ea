/**
 * 绑定用户: search the users outside the role by user name and bind the chosen one. A user has one
 * role, so binding moves them; the options say which role a user is in now.
 */
import { Button, Select, Space } from 'antd';
import { useState } from 'react';

import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { toast } from '../../../lib/toast';
import { useBindRoleUserMutation, useRoleUsersQuery } from './api';
import type { RoleRow } from './config';

const SEARCH_DEBOUNCE_MS = 300;
const SEARCH_RESULT_SIZE = 20;

export function UserPicker({ role }: { role: RoleRow }) {
  const [search, setSearch] = useState('');
  const [userId, setUserId] = useState<number | null>(null);
  const userName = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const candidates = useRoleUsersQuery({ size: SEARCH_RESULT_SIZE, current: 1, params: { roleId: role.id, member: 0, userName } }, { skip: userName === '' });
  const [bindRoleUser, binding] = useBindRoleUserMutation();

  const options = (userName === '' ? [] : (candidates.data?.records ?? [])).map((user) => ({
    value: user.id,
    label: user.roleName ? `${user.userName}（${user.nickName}，当前角色：${user.roleName}）` : `${user.userName}（${user.nickName}）`,
  }));

  const bind = async () => {
    if (userId === null) return;
    const envelope = await bindRoleUser({ userId, roleId: role.id })
      .unwrap()
      .catch(() => null);
    if (!envelope) return;
    toast.success(envelope.msg);
    setUserId(null);
    setSearch('');
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select<number>
        showSearch={{ filterOption: false, searchValue: search, onSearch: setSearch }}
        aria-label="搜索用户名"
        placeholder="输入用户名搜索"
        style={{ flex: 1 }}
        value={userId}
        onChange={setUserId}
        options={options}
        loading={candidates.isFetching}
        notFoundContent={userName === '' ? null : '没有匹配的用户'}
      />
      <Button type="primary" disabled={userId === null} loading={binding.isLoading} onClick={bind}>
        绑定用户
      </Button>
    </Space.Compact>
  );
}
