/** Login log calls (issue 9): sign-ins, sign-outs and session ends, newest first. */
import { api } from '../../../lib/http/api';
import { postQuery } from '../../../lib/http/endpoints';

export const loginLogApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireLogins: postQuery(build, '/monitor/login/inquire', { providesTags: ['LoginLog'] }),
    /** Run on demand (lazy): walks the whole hash chain. */
    verifyLoginChain: postQuery(build, '/monitor/login/integrity'),
  }),
});

export const { useInquireLoginsQuery, useLazyVerifyLoginChainQuery } = loginLogApi;
