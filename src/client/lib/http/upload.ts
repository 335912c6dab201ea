/**
 * File uploads (the .xlsx imports): the file is the request body (XLSX_MIME), its options the query
 * string, the answer the usual envelope. Outside RTK Query because a file is not serialisable
 * state; failures are handled as the base query handles them: the msg is the error toast, code
 * 401 ends the session, a file over the limit (HTTP 413) says so.
 */
import { isAxiosError } from 'axios';
import { useCallback } from 'react';
import { useDispatch, useStore } from 'react-redux';

import type { BodyOf, DataOf } from '../../../contract';
import { Code, IMPORT_MAX_BYTES, XLSX_MIME, type Envelope } from '../../../contract/constants';
import { toast } from '../toast';
import { forgetSession } from './api';
import { DEFAULT_FAILURE_MSG, NETWORK_FAILURE_MSG, isEnvelope, toTransportError, transportMessage } from './base-query';
import { httpClient } from './client';
import { pathOf, type UploadKey } from './endpoints';

export const FILE_TOO_LARGE_MSG = `文件过大，最大 ${IMPORT_MAX_BYTES / 1024 / 1024} MB`;

export type UploadResult<K extends UploadKey> = { ok: true; envelope: Envelope<DataOf<K>> } | { ok: false };

interface TokenState {
  session: { token: string };
}

/** Answers `upload(key, file, query)`: the envelope on success; a failure has been toasted. */
export function useUpload() {
  const store = useStore<TokenState>();
  const dispatch = useDispatch();
  return useCallback(
    async <K extends UploadKey>(key: K, file: Blob, query: BodyOf<K>): Promise<UploadResult<K>> => {
      const token = store.getState().session.token;
      let answer: unknown;
      try {
        const response = await httpClient.request({
          url: pathOf(key),
          method: 'POST',
          params: query,
          data: file,
          headers: { 'Content-Type': XLSX_MIME, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        });
        answer = response.data;
      } catch (error) {
        const failure = toTransportError(error);
        toast.error(failure.status === 413 ? FILE_TOO_LARGE_MSG : isAxiosError(error) ? transportMessage(failure) : NETWORK_FAILURE_MSG);
        return { ok: false };
      }
      if (!isEnvelope(answer)) {
        toast.error(NETWORK_FAILURE_MSG);
        return { ok: false };
      }
      if (answer.code === Code.ok) return { ok: true, envelope: answer as Envelope<DataOf<K>> };
      toast.error(answer.msg || DEFAULT_FAILURE_MSG);
      if (answer.code === Code.unauthorized) forgetSession(dispatch);
      return { ok: false };
    },
    [store, dispatch],
  );
}
