/** Menu and resource calls (docs/api/system.md, Menus and resources). Resources change what the role grant dialog lists, hence the tags. */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const menuApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireMenus: postQuery(build, '/sys/menu/inquire', { providesTags: ['Menu'] }),
    createMenu: postMutation(build, '/sys/menu/creation', { invalidatesTags: ['Menu', 'Authority'] }),
    editMenu: postMutation(build, '/sys/menu/edit', { invalidatesTags: ['Menu', 'Authority'] }),

    inquireMenuResources: postQuery(build, '/sys/resource/menu/inquire', { providesTags: ['Resource'] }),
    createResource: postMutation(build, '/sys/resource/creation', { invalidatesTags: ['Resource'] }),
    editResource: postMutation(build, '/sys/resource/edit', { invalidatesTags: ['Resource', 'MenuDict'] }),
  }),
});

export const { useInquireMenusQuery, useCreateMenuMutation, useEditMenuMutation, useInquireMenuResourcesQuery, useCreateResourceMutation, useEditResourceMutation } = menuApi;
