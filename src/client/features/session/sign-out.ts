/** 退出登录: the server revokes the token first; whatever it answers, this browser ends the session. */
import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';

import { VERIFY_ROUTE } from '../../config/views';
import { sessionEnded } from '../../lib/session';
import { useLogoutMutation } from './api';

export function useSignOut(): () => Promise<void> {
  const [logout] = useLogoutMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    await logout();
    dispatch(sessionEnded({ reason: 'logout' }));
    await navigate(VERIFY_ROUTE, { replace: true });
  }, [logout, dispatch, navigate]);
}
