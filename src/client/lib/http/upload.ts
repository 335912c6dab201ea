/**
 * File uploads (the .xlsx imports): the file is the request body (XLSX_MIME), its options the query
 * string, the answer the usual envelope. Outside RTK Query because a file is not serialisable
 * state; it goes through the one authorised request path (authorized-request.ts) like every call:
 * a refusal's msg is the error toast, code 401 ends the session, a file over the limit (HTTP 413)
 * says so.
 */
import { useCallback } from 'react';
import { useStore } from 'react-redux';

import type { BodyOf, DataOf } from '../../../contract';
import { IMPORT_MAX_BYTES, XLSX_MIME, type Envelope } from '../../../contract/constants';
import { requestApi } from './authorized-request';
import { pathOf, type UploadKey } from './endpoints';

export const FILE_TOO_LARGE_MSG = `文件过大，最大 ${IMPORT_MAX_BYTES / 1024 / 1024} MB`;

export type UploadResult<K extends UploadKey> = { ok: true; envelope: Envelope<DataOf<K>> } | { ok: false };

/** Answers `upload(key, file, query)`: the envelope on success; a failure has been toasted. */
export function useUpload() {
  const store = useStore();
  return useCallback(
    async <K extends UploadKey>(key: K, file: Blob, query: BodyOf<K>): Promise<UploadResult<K>> => {
      const result = await requestApi(
        store,
        { url: pathOf(key), method: 'POST', params: query, data: file, headers: { 'Content-Type': XLSX_MIME }, expect: 'envelope' },
        { statusMsgs: { 413: FILE_TOO_LARGE_MSG } },
      );
      return 'envelope' in result ? { ok: true, envelope: result.envelope as Envelope<DataOf<K>> } : { ok: false };
    },
    [store],
  );
}
