/**
 * Every route but the login needs a token. Without one the user goes to the login, carrying where
 * they came from (docs/client.md, Session): after a sign-out or a body code 401, which emptied the
 * token, and on a visit without a session. Login data found without a token (a half-cleared
 * browser) ends the session (`noToken`), which clears it.
 */
import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

import { VERIFY_ROUTE } from '../../config/views';
import { selectSession, sessionEnded } from '../../lib/session';

export function RequireToken() {
  const { token, userName, nickName, menu } = useSelector(selectSession);
  const location = useLocation();
  const dispatch = useDispatch();
  const leftover = !token && (userName !== '' || nickName !== '' || menu.length > 0);
  useEffect(() => {
    if (leftover) dispatch(sessionEnded({ reason: 'noToken' }));
  }, [leftover, dispatch]);
  if (!token) return <Navigate to={VERIFY_ROUTE} replace state={{ from: location }} />;
  return <Outlet />;
}
