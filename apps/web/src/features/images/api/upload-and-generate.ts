import { errorCodes, statusForCode } from '@altwise/contracts/errors';
import { type StartBatchResponse, startBatchResponseSchema } from '@altwise/contracts/generation';
import { messages } from '@altwise/contracts/messages';
import { API_BASE } from '@altwise/contracts/routes';
import { apiErrorFromBody, networkErrorMessage } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { clearToken, readToken } from '../../../lib/auth-storage.ts';

export type UploadAndGenerateInput = {
  files: readonly File[];
  userId?: string | null | undefined;
  chatGptPrompt?: string | undefined;
  /** Called with the share of the request body sent so far, 0 to 1. */
  onUploadProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

function toApiError(status: number, body: string): ApiError {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    data = undefined;
  }
  return apiErrorFromBody(status, data);
}

/**
 * POST /images/upload-and-generate (the product spec §7): multipart with `images` repeated, `userId` and
 * `chatGptPrompt`; answers with the started batch. It uses XMLHttpRequest rather than the fetch-based
 * api client because only XHR reports upload progress, which the upload overlay shows. Same rules as
 * the api client: no stored token → 'No token found' and nothing sent; a 401 removes the token;
 * failures are ApiErrors carrying the server's message.
 */
export function uploadAndGenerate(input: UploadAndGenerateInput): Promise<StartBatchResponse> {
  const token = readToken();
  if (!token) {
    return Promise.reject(
      new ApiError({
        status: statusForCode(errorCodes.unauthorized),
        code: errorCodes.unauthorized,
        message: messages.common.noToken,
      }),
    );
  }
  const form = new FormData();
  for (const file of input.files) form.append('images', file, file.name);
  if (input.userId) form.append('userId', input.userId);
  if (input.chatGptPrompt) form.append('chatGptPrompt', input.chatGptPrompt);

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/images/upload-and-generate`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) input.onUploadProgress?.(event.loaded / event.total);
    };
    xhr.upload.onload = () => input.onUploadProgress?.(1);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(startBatchResponseSchema.parse(JSON.parse(xhr.responseText)));
        } catch {
          reject(
            new ApiError({
              status: xhr.status,
              code: errorCodes.internal,
              message: messages.common.unknownError,
            }),
          );
        }
        return;
      }
      if (xhr.status === 401) clearToken();
      reject(toApiError(xhr.status, xhr.responseText));
    };
    xhr.onerror = () =>
      reject(new ApiError({ status: 0, code: errorCodes.unavailable, message: networkErrorMessage }));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    input.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
