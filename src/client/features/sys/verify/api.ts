/** Signing in (/sys/user/verify): the one call sent without a bearer token (docs/API.md). */
import { api } from '../../../lib/http/api';
import { postMutation } from '../../../lib/http/endpoints';

export const verifyApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: postMutation(build, '/sys/user/verify', { extraOptions: { fallbackMsg: '登录失败' } }),
  }),
});

export const { useLoginMutation } = verifyApi;
