/** The shell's own call: changing one's own password (the account menu's 修改密码). */
import { api } from '../../../lib/http/api';
import { postMutation } from '../../../lib/http/endpoints';

export const shellApi = api.injectEndpoints({
  endpoints: (build) => ({
    changePassword: postMutation(build, '/sys/user/password'),
  }),
});

export const { useChangePasswordMutation } = shellApi;
