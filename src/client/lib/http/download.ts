/**
 * File downloads (e.g. the .xlsx exports): POST a JSON body through the app's axios instance (base
 * /api, bearer token, timeout) and receive a file, with progress as the bytes arrive. A refusal
 * (no grant, bad filter, expired session) is not a file but the usual envelope: it is handled as
 * the base query handles one, its msg the error toast and code 401 the end of the session.
 *
 *   const { start, cancel, progress, downloading } = useDownload();
 *   await start('/sys/user/export', { params, sort }, '用户列表.xlsx');
 */
import { isAxiosError } from 'axios';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useDispatch, useStore } from 'react-redux';

import type { BodyOf } from '../../../contract';
import { Code, type Envelope } from '../../../contract/constants';
import { toast } from '../toast';
import { forgetSession } from './api';
import { DEFAULT_FAILURE_MSG, NETWORK_FAILURE_MSG, isEnvelope, toTransportError, transportMessage } from './base-query';
import { httpClient } from './client';
import { pathOf, type DownloadKey } from './endpoints';

export interface DownloadProgress {
  loaded: number;
  /** Unknown (null) for a streamed answer, which has no length up front. */
  total: number | null;
}

export type FetchedFile = { file: Blob; fileName: string } | { refusal: Envelope<unknown> };

export interface FetchFileOptions {
  token: string;
  fallbackName: string;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** The name the server gives the file (RFC 6266: `filename*` in UTF-8 wins over `filename`). */
export function fileNameOf(disposition: string | undefined, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      return fallback;
    }
  }
  return /filename\s*=\s*"([^"]+)"/i.exec(disposition)?.[1] ?? fallback;
}

/** One download; transport failures (network, HTTP status, abort) are thrown as axios errors. */
export async function fetchFile(url: string, body: unknown, { token, fallbackName, onProgress, signal }: FetchFileOptions): Promise<FetchedFile> {
  const response = await httpClient.request<Blob>({
    url,
    method: 'POST',
    data: body ?? {},
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    responseType: 'blob',
    signal,
    onDownloadProgress: (event) => onProgress?.({ loaded: event.loaded, total: event.total ?? null }),
  });
  const type = String(response.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    const answer: unknown = JSON.parse(await response.data.text());
    return { refusal: isEnvelope(answer) ? answer : { code: Code.internal, msg: DEFAULT_FAILURE_MSG, data: null } };
  }
  return { file: response.data, fileName: fileNameOf(response.headers['content-disposition'] as string | undefined, fallbackName) };
}

/** Hands a downloaded file to the browser as a saved file. */
export function saveFile(file: Blob, fileName: string): void {
  const href = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; a moment later the URL can go.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

interface TokenState {
  session: { token: string };
}

export interface Download {
  /** Resolves true when the file was saved; a refusal or failure has been toasted. */
  start: <K extends DownloadKey>(key: K, body: BodyOf<K>, fallbackName: string) => Promise<boolean>;
  cancel: () => void;
  /** Null while idle. */
  progress: DownloadProgress | null;
  downloading: boolean;
}

export function useDownload(): Download {
  const store = useStore<TokenState>();
  const dispatch = useDispatch();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const running = useRef<AbortController | null>(null);
  // Leaving the screen stops the download instead of saving a file nobody is waiting for.
  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(
    async (key: DownloadKey, body: unknown, fallbackName: string): Promise<boolean> => {
      const controller = new AbortController();
      running.current = controller;
      setProgress({ loaded: 0, total: null });
      try {
        const fetched = await fetchFile(pathOf(key), body, {
          token: store.getState().session.token,
          fallbackName,
          onProgress: setProgress,
          signal: controller.signal,
        });
        if ('refusal' in fetched) {
          toast.error(fetched.refusal.msg || DEFAULT_FAILURE_MSG);
          if (fetched.refusal.code === Code.unauthorized) forgetSession(dispatch);
          return false;
        }
        saveFile(fetched.file, fetched.fileName);
        return true;
      } catch (error) {
        if (!controller.signal.aborted) toast.error(isAxiosError(error) ? transportMessage(toTransportError(error)) : NETWORK_FAILURE_MSG);
        return false;
      } finally {
        if (running.current === controller) running.current = null;
        if (!controller.signal.aborted) setProgress(null);
      }
    },
    [store, dispatch],
  ) as Download['start'];

  const cancel = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setProgress(null);
  }, []);

  return { start, cancel, progress, downloading: progress !== null };
}
