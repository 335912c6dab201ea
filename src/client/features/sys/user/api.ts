/**
 * User calls (docs/api/system.md, Users). A user's role decides a role's user list and count, so saves refresh those
 * too.
 */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const userApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireUsers: postQuery(build, '/sys/user/inquire', { providesTags: ['User'] }),
    createUser: postMutation(build, '/sys/user/creation', { invalidatesTags: ['User', 'RoleUser', 'Role'] }),
    editUser: postMutation(build, '/sys/user/edit', { invalidatesTags: ['User', 'RoleUser', 'Role'] }),
    resetUserPassword: postMutation(build, '/sys/user/password/reset'),
    batchUserState: postMutation(build, '/sys/user/batch/state', { invalidatesTags: ['User', 'RoleUser'] }),
    /** The roles the caller may give a user (the form's and the filter's choices). */
    userRoleChoices: postQuery(build, '/sys/user/role/choices', { providesTags: ['Role'] }),
  }),
});

export const { useInquireUsersQuery, useCreateUserMutation, useEditUserMutation, useResetUserPasswordMutation, useBatchUserStateMutation, useUserRoleChoicesQuery } = userApi;
