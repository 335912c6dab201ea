/**
 * Unit changes (sys/org). The tree itself is read through components/org-tree (the user, role,
 * location, device and rule screens read it too, each at its own path). A change reloads every
 * reading, and the user list with it: users show their unit's name.
 */
import { api } from '../../../lib/http/api';
import { postMutation } from '../../../lib/http/endpoints';

export const orgApi = api.injectEndpoints({
  endpoints: (build) => ({
    createOrg: postMutation(build, '/sys/org/creation', { invalidatesTags: ['Org'] }),
    editOrg: postMutation(build, '/sys/org/edit', { invalidatesTags: ['Org', 'User'] }),
    removeOrg: postMutation(build, '/sys/org/removal', { invalidatesTags: ['Org'] }),
  }),
});

export const { useCreateOrgMutation, useEditOrgMutation, useRemoveOrgMutation } = orgApi;
