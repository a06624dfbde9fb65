import { ApiError, type ApiErrorBody } from '@/lib/request';
import { getAuthToken } from '@/lib/storage';

/** What a person reads when the server did not say more itself. */
const STATUS_WORDS: Record<number, string> = {
  0: 'The upload did not reach the server. Check your connection and try again.',
  400: 'The server could not read this upload.',
  401: 'Your session has ended. Sign in again.',
  403: 'You are not allowed to add files here.',
  404: 'Not found: it may have been deleted.',
  413: 'This file is too large.',
  415: 'This type of file is not supported.',
  429: 'Too many uploads at once. Wait a moment and try again.',
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function errorFor(status: number, text: string): ApiError {
  const parsed = parseJson(text);
  const data = parsed && typeof parsed === 'object' ? (parsed as ApiErrorBody) : null;
  const message = data?.message || STATUS_WORDS[status] || `The upload failed (${status}). Please try again later.`;
  return new ApiError(status, message, data);
}

export interface UploadOptions {
  /** Called with the fraction sent, 0 to 1, as the bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * A multipart upload (form field `file`) with the session's bearer token. fetch cannot report upload
 * progress, so this uses XMLHttpRequest. Resolves to the parsed JSON answer; rejects with an ApiError
 * whose message is the server's own (or the status in words), or with an AbortError when aborted.
 */
export function uploadWithProgress<T>(url: string, file: Blob, { onProgress, signal }: UploadOptions = {}) {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', url);
    xhr.withCredentials = true;
    const token = getAuthToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);

    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    });
    xhr.addEventListener('load', () => {
      settle();
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve(parseJson(xhr.responseText) as T);
      } else {
        reject(errorFor(xhr.status, xhr.responseText));
      }
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(errorFor(0, ''));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });
    signal?.addEventListener('abort', onAbort, { once: true });

    const form = new FormData();
    form.append('file', file, file instanceof File ? file.name : 'upload');
    xhr.send(form);
  });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
