/**
 * The session's calls: sign-out and the authorised menu (docs/API.md). Every authority answer
 * replaces the session's menu. Signing in is the sign-in screen's (features/sys/verify).
 */
import { api } from '../../lib/http/api';
import { getQuery, postMutation } from '../../lib/http/endpoints';
import { menuLoaded } from './slice';

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    logout: postMutation(build, '/sys/user/logout'),
    authority: getQuery(build, 'GET /sys/menu/authority', {
      providesTags: ['Authority'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(menuLoaded(data));
      },
    }),
  }),
});

export const { useLogoutMutation, useAuthorityQuery, useLazyAuthorityQuery } = sessionApi;
