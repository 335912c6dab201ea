/**
 * Role calls (docs/api/system.md, Roles): the role list and its dialogs, its grants (what the 授权 dialog shows and
 * saves) and its users (the 用户 dialog). Binding moves a user between roles, so it refreshes every
 * role's user list and user count, and the user screen.
 */
import { api } from '../../../lib/http/api';
import { getQuery, postMutation, postQuery } from '../../../lib/http/endpoints';

export const roleApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireRoles: postQuery(build, '/sys/role/inquire', { providesTags: ['Role'] }),
    createRole: postMutation(build, '/sys/role/creation', { invalidatesTags: ['Role'] }),
    editRole: postMutation(build, '/sys/role/edit', { invalidatesTags: ['Role'] }),

    menuResources: postQuery(build, '/sys/menu/resources', { providesTags: ['Menu', 'Resource'] }),
    roleAuth: getQuery(build, 'GET /sys/role/auth', { providesTags: ['RoleAuth'] }),
    saveRoleAuth: postMutation(build, '/sys/role/auth', { invalidatesTags: ['RoleAuth', 'Authority'] }),

    /** A role's users (params.member 1) or, for the picker, the users outside it (member 0). */
    roleUsers: postQuery(build, '/sys/role/user/inquire', { providesTags: ['RoleUser'] }),
    bindRoleUser: postMutation(build, '/sys/role/bind/user', { invalidatesTags: ['RoleUser', 'Role', 'User'] }),
    unbindRoleUser: postMutation(build, '/sys/role/unbind/user', { invalidatesTags: ['RoleUser', 'Role', 'User'] }),
  }),
});

export const {
  useInquireRolesQuery,
  useCreateRoleMutation,
  useEditRoleMutation,
  useMenuResourcesQuery,
  useRoleAuthQuery,
  useSaveRoleAuthMutation,
  useRoleUsersQuery,
  useBindRoleUserMutation,
  useUnbindRoleUserMutation,
} = roleApi;
