import { SUPPORT_ATTACHMENT_TYPES, SUPPORT_LIMITS, type SupportAttachmentType } from '@cellport/shared/schemas/support';

/** The body limit of the upload routes: just over the largest screenshot, so one byte more is ours to refuse (413). */
export const UPLOAD_BODY_LIMIT = SUPPORT_LIMITS.attachmentBytesMax + 64 * 1024;

const startsWith = (bytes: Buffer, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type the bytes are, by their magic number (PNG, JPEG, WebP), or null. */
export function sniffImage(bytes: Buffer): SupportAttachmentType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** The declared media type without its parameters, when it is one we take. */
export function declaredImageType(contentType: string | undefined): SupportAttachmentType | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return (SUPPORT_ATTACHMENT_TYPES as readonly string[]).includes(type) ? type as SupportAttachmentType : null;
}

const EXTENSION: Record<SupportAttachmentType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The file name as stored and shown: no path, no control characters, at most 200 characters; a default when empty. */
export function cleanFileName(name: string | undefined, type: SupportAttachmentType): string {
  const base = (name ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f"]/g, '').trim()
    .slice(0, SUPPORT_LIMITS.attachmentNameMax);
  return base || `screenshot.${EXTENSION[type]}`;
}

/** `inline` with the name: an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|[\\%]/g, '_');
  return `inline; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
