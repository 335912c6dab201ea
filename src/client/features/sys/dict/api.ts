/**
 * Dictionary calls (docs/api/system.md, Dictionaries). Every change of an entry or of its bindings invalidates the menu
 * dictionaries, so screens show the new labels on their next visit without a page reload.
 */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const dictApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireDicts: postQuery(build, '/sys/dict/inquire', { providesTags: ['Dict'] }),
    createDict: postMutation(build, '/sys/dict/creation', { invalidatesTags: ['Dict', 'MenuDict'] }),
    editDict: postMutation(build, '/sys/dict/edit', { invalidatesTags: ['Dict', 'MenuDict'] }),
    bindableResources: postQuery(build, '/sys/resource/inquires', { providesTags: ['Resource'] }),
    bindDict: postMutation(build, '/sys/dict/bind', { invalidatesTags: ['Resource', 'MenuDict'] }),
    unbindDict: postMutation(build, '/sys/dict/unbind', { invalidatesTags: ['Resource', 'MenuDict'] }),
  }),
});

export const { useInquireDictsQuery, useCreateDictMutation, useEditDictMutation, useBindableResourcesQuery, useBindDictMutation, useUnbindDictMutation } = dictApi;
