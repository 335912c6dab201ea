/** Login log calls (issue 9): sign-ins, sign-outs and session ends, newest first. */
import { api } from '../../../lib/http/api';
import { postQuery } from '../../../lib/http/endpoints';

export const loginLogApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireLogins: postQuery(build, '/monitor/login/inquire', { providesTags: ['LoginLog'] }),
    /** 校验完整性, run on demand (lazy): the server walks the log's whole hash chain. */
    checkLoginIntegrity: postQuery(build, '/monitor/login/integrity'),
  }),
});

export const { useInquireLoginsQuery, useLazyCheckLoginIntegrityQuery } = loginLogApi;
