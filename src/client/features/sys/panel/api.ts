/** The dashboard's figures. */
import { api } from '../../../lib/http/api';
import { postQuery } from '../../../lib/http/endpoints';

export const panelApi = api.injectEndpoints({
  endpoints: (build) => ({
    panel: postQuery(build, '/sys/panel/inquire', { providesTags: ['Panel'] }),
  }),
});

export const { usePanelQuery } = panelApi;
