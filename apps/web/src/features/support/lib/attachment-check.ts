import { SUPPORT_ATTACHMENT_TYPES, SUPPORT_LIMITS } from '@cellport/shared/schemas/support-constants';

/** What the browser knows of a picked or pasted file before it is sent. */
export interface FileFacts { name: string; type: string; size: number }

/** Why a file is not taken: not PNG/JPEG/WebP, over 5 MiB, empty, or one more than a message may carry. */
export type AttachmentProblem = 'type' | 'size' | 'empty' | 'count';

export interface AttachmentCheck<F extends FileFacts> {
  accepted: F[];
  rejected: Array<{ file: F; problem: AttachmentProblem }>;
}

const TYPES: readonly string[] = SUPPORT_ATTACHMENT_TYPES;

/**
 * The files a message can take, in the order given, checked before anything is uploaded (the server checks the same
 * limits and the bytes again): an image type the server accepts, not empty, at most 5 MiB, and no more than
 * `attachmentsPerMessage` together with the `already` attached ones.
 */
export function checkAttachments<F extends FileFacts>(files: readonly F[], already: number): AttachmentCheck<F> {
  const accepted: F[] = [];
  const rejected: AttachmentCheck<F>['rejected'] = [];
  for (const file of files) {
    const problem: AttachmentProblem | null =
      !TYPES.includes(file.type.toLowerCase()) ? 'type'
        : file.size === 0 ? 'empty'
          : file.size > SUPPORT_LIMITS.attachmentBytesMax ? 'size'
            : already + accepted.length >= SUPPORT_LIMITS.attachmentsPerMessage ? 'count'
              : null;
    if (problem) rejected.push({ file, problem });
    else accepted.push(file);
  }
  return { accepted, rejected };
}

/** The size limit in whole mebibytes, as the messages name it ("5 MB"). */
export const ATTACHMENT_MAX_MB = SUPPORT_LIMITS.attachmentBytesMax / (1024 * 1024);

/** A pasted image often has no useful name ("image.png"): give it one with the time, keeping its extension. */
export function pastedFileName(type: string, now: Date): string {
  const extension = type === 'image/jpeg' ? 'jpg' : type.replace(/^image\//, '') || 'png';
  const stamp = now.toISOString().slice(0, 19).replace(/[T:]/g, '-');
  return `screenshot-${stamp}.${extension}`;
}
