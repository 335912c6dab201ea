/**
 * Operation log calls (issue 9). The log only grows and nothing here changes it: lists are fetched
 * afresh whenever a screen or drawer opens (the api's refetchOnMountOrArgChange).
 */
import { useGranted } from '../../../components/list-screen';
import { api } from '../../../lib/http/api';
import { postQuery } from '../../../lib/http/endpoints';

export const operationApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireOperations: postQuery(build, '/monitor/operation/inquire', { providesTags: ['OperationLog'] }),
    operationDetail: postQuery(build, '/monitor/operation/detail', { providesTags: ['OperationLog'] }),
    /** The modules and their actions recorded so far, for the filter selects. */
    operationOptions: postQuery(build, '/monitor/operation/options', { providesTags: ['OperationLog'] }),
    /** 校验完整性, run on demand (lazy): the server walks the log's whole hash chain. */
    checkOperationIntegrity: postQuery(build, '/monitor/operation/integrity'),
  }),
});

export const { useInquireOperationsQuery, useOperationDetailQuery, useOperationOptionsQuery, useLazyCheckOperationIntegrityQuery } = operationApi;

/** The filters' modules and actions, asked only of a role holding 模块与操作: else the selects offer none. */
export const useOperationOptions = () => useOperationOptionsQuery(undefined, { skip: !useGranted('monitor/operation', 'api_options') });
