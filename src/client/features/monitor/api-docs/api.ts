/** The OpenAPI description of the API, as the server generates it from the contract. */
import type { Envelope } from '../../../../contract/constants';
import { api } from '../../../lib/http/api';
import { pathOf } from '../../../lib/http/endpoints';
import type { OpenApiDocument } from './document';

export const apiDocsApi = api.injectEndpoints({
  endpoints: (build) => ({
    readApiDocument: build.query<OpenApiDocument, void>({
      query: () => ({ url: pathOf('GET /openapi.json'), method: 'GET', document: true }),
      transformResponse: (envelope: Envelope<unknown>) => envelope.data as OpenApiDocument,
    }),
  }),
});

export const { useReadApiDocumentQuery } = apiDocsApi;
