/**
 * Every route but the login needs a stored token (SPEC 2). Without one the stored login data is
 * cleared and the user goes to the login, carrying where they came from. A body code 401 empties
 * the token, so it ends here too.
 */
import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

import { VERIFY_ROUTE } from '../../config/views';
import { loggedOut, selectToken } from './slice';

export function RequireToken() {
  const token = useSelector(selectToken);
  const location = useLocation();
  const dispatch = useDispatch();
  useEffect(() => {
    if (token) return;
    // Clearing the state too, or redux-persist would write a leftover userName back.
    dispatch(loggedOut());
    localStorage.clear();
  }, [token, dispatch]);
  if (!token) return <Navigate to={VERIFY_ROUTE} replace state={{ from: location }} />;
  return <Outlet />;
}
