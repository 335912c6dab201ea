/** Advanced settings calls (docs/api/hotel.md), and the initialisation that (re)applies a record. */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const advancedApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireAdvanced: postQuery(build, '/hotel/advanced/inquire', { providesTags: ['Advanced'] }),
    createAdvanced: postMutation(build, '/hotel/advanced/creation', { invalidatesTags: ['Advanced'] }),
    editAdvanced: postMutation(build, '/hotel/advanced/edit', { invalidatesTags: ['Advanced'] }),
    initialiseAdvanced: postMutation(build, '/hotel/advanced/jd/edit', { invalidatesTags: ['Advanced'] }),
  }),
});

export const { useInquireAdvancedQuery, useCreateAdvancedMutation, useEditAdvancedMutation, useInitialiseAdvancedMutation } = advancedApi;
