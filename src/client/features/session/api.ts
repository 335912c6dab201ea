/** Sign-in, sign-out, own password and the authorised menu (SPEC 7). */
import { api } from '../../lib/http/api';
import { getQuery, postMutation } from '../../lib/http/endpoints';
import { menuLoaded } from './slice';

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: postMutation(build, '/sys/user/verify', { extraOptions: { fallbackMsg: '登录失败' } }),
    logout: postMutation(build, '/sys/user/logout'),
    changePassword: postMutation(build, '/sys/user/password'),
    authority: getQuery(build, 'GET /sys/menu/authority', {
      providesTags: ['Authority'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(menuLoaded(data));
      },
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation, useChangePasswordMutation, useAuthorityQuery } = sessionApi;
