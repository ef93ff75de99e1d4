import { API_BASE } from '@cellport/shared/constants';
import { COMMON_ERRORS } from '@cellport/shared/errors/common';
import type { SupportAttachment } from '@cellport/shared/schemas/support';
import { ApiError, pageLanguage } from '../../../lib/api';
import { englishErrorText } from '../../../lib/error-texts';

/** Where an upload goes: the customer's path, or the console's for operators. */
export type UploadScope = 'customer' | 'admin';

/** Reports how much of the file has been sent, 0 to 1. */
export type UploadProgress = (fraction: number) => void;

const PATHS: Record<UploadScope, string> = {
  customer: '/support/attachments',
  admin: '/admin/support/attachments',
};

/**
 * POST …/support/attachments?name= with the file's raw bytes and its image type (the contract of issue 17). fetch()
 * cannot report upload progress, so this is an XMLHttpRequest; its failures are ApiErrors like the rest of the API's.
 */
export function uploadAttachment(scope: UploadScope, file: File, onProgress: UploadProgress = () => {}): Promise<SupportAttachment> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${API_BASE}${PATHS[scope]}?name=${encodeURIComponent(file.name)}`);
    request.withCredentials = true;
    request.responseType = 'json';
    request.setRequestHeader('content-type', file.type);
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('accept-language', pageLanguage());
    request.upload.onprogress = (event) => { if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total); };
    request.onerror = () => reject(new ApiError(0, 'NETWORK', 'Network error. Check your connection and try again.'));
    request.onload = () => {
      const data: unknown = request.response;
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve((data as { attachment: SupportAttachment }).attachment);
        return;
      }
      const record = (data ?? {}) as { error?: unknown; code?: unknown };
      const code = typeof record.code === 'string' ? record.code : request.status === 413 ? 'SUPPORT_ATTACHMENT_TOO_LARGE' : 'INTERNAL';
      const message = typeof record.error === 'string' ? record.error : englishErrorText(code) ?? COMMON_ERRORS.INTERNAL;
      reject(new ApiError(request.status, code, message, data));
    };
    request.send(file);
  });
}

/** The address of an attachment's bytes (operators read it on the customer's path too). */
export const attachmentUrl = (id: string) => `${API_BASE}/support/attachments/${encodeURIComponent(id)}`;
