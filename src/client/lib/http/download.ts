/**
 * File downloads (e.g. the .xlsx exports): POST a JSON body through the one authorised request
 * path (authorized-request.ts: bearer token, refusals, 401) and receive a file, with progress as
 * the bytes arrive. A refusal (no grant, bad filter, expired session) is not a file but the usual
 * envelope: its msg is the error toast and code 401 ends the session, as for any other call.
 *
 *   const { start, cancel, progress, downloading } = useDownload();
 *   await start('/sys/user/export', { params, sort }, '用户列表.xlsx');
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'react-redux';

import type { BodyOf } from '../../../contract';
import type { Envelope } from '../../../contract/envelope';
import { requestApi, type SessionAccess } from './authorized-request';
import { pathOf, type DownloadKey } from './endpoints';
import { isBusinessError, type TransportError } from './errors';

export interface DownloadProgress {
  loaded: number;
  /** Unknown (null) for a streamed answer, which has no length up front. */
  total: number | null;
}

/** A file, or what came instead: a refusal or a transport failure, both already toasted. */
export type FetchedFile = { file: Blob; fileName: string } | { refusal: Envelope<unknown> } | { failure: TransportError };

export interface FetchFileOptions {
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

/** One download through the authorised request path, without React (no saving, no progress state). */
export async function fetchFile(session: SessionAccess, url: string, body: unknown, { fallbackName, onProgress, signal }: FetchFileOptions): Promise<FetchedFile> {
  const result = await requestApi<Blob>(session, {
    url,
    method: 'POST',
    data: body ?? {},
    responseType: 'blob',
    signal,
    onDownloadProgress: (event) => onProgress?.({ loaded: event.loaded, total: event.total ?? null }),
    expect: 'file',
  });
  if ('body' in result) return { file: result.body, fileName: fileNameOf(result.headers['content-disposition'] as string | undefined, fallbackName) };
  if ('envelope' in result) return { refusal: result.envelope };
  return isBusinessError(result.error) ? { refusal: result.error.data } : { failure: result.error };
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

export interface Download {
  /** Resolves true when the file was saved; a refusal or failure has been toasted. */
  start: <K extends DownloadKey>(key: K, body: BodyOf<K>, fallbackName: string) => Promise<boolean>;
  cancel: () => void;
  /** Null while idle. */
  progress: DownloadProgress | null;
  downloading: boolean;
}

export function useDownload(): Download {
  const store = useStore();
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
        const fetched = await fetchFile(store, pathOf(key), body, { fallbackName, onProgress: setProgress, signal: controller.signal });
        if (!('file' in fetched)) return false;
        saveFile(fetched.file, fetched.fileName);
        return true;
      } finally {
        if (running.current === controller) running.current = null;
        if (!controller.signal.aborted) setProgress(null);
      }
    },
    [store],
  ) as Download['start'];

  const cancel = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setProgress(null);
  }, []);

  return { start, cancel, progress, downloading: progress !== null };
}
