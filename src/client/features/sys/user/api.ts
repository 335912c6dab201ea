/**
 * User calls (docs/api/system.md, Users). A user's role decides a role's user list and count, so saves refresh those
 * too.
 */
import { PAGE_SIZE_MAX } from '../../../../contract/constants';
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const userApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireUsers: postQuery(build, '/sys/user/inquire', { providesTags: ['User'] }),
    createUser: postMutation(build, '/sys/user/creation', { invalidatesTags: ['User', 'RoleUser', 'Role'] }),
    editUser: postMutation(build, '/sys/user/edit', { invalidatesTags: ['User', 'RoleUser', 'Role'] }),
    resetUserPassword: postMutation(build, '/sys/user/password/reset'),
    batchUserState: postMutation(build, '/sys/user/batch/state', { invalidatesTags: ['User', 'RoleUser'] }),
    /** The roles a user can be given: one page of the largest size the server allows. */
    userRoleChoices: postQuery(build, '/sys/role/inquire', { providesTags: ['Role'] }),
  }),
});

export const { useInquireUsersQuery, useCreateUserMutation, useEditUserMutation, useResetUserPasswordMutation, useBatchUserStateMutation, useUserRoleChoicesQuery } = userApi;

export const ROLE_CHOICES_REQUEST = { size: PAGE_SIZE_MAX, current: 1 };
