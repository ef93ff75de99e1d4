import { SUPPORT_LIMITS } from '@cellport/shared/schemas/support';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_MB, checkAttachments, pastedFileName } from './attachment-check';

const file = (name: string, type: string, size: number) => ({ name, type, size });
const MAX = SUPPORT_LIMITS.attachmentBytesMax;

describe('checkAttachments', () => {
  it('takes PNG, JPEG and WebP images up to 5 MiB, whatever the case of their type', () => {
    const files = [file('a.png', 'image/png', 10), file('b.jpg', 'IMAGE/JPEG', MAX), file('c.webp', 'image/webp', 1)];
    expect(checkAttachments(files, 0)).toEqual({ accepted: files, rejected: [] });
  });

  it('refuses other types, empty files and files one byte over the limit, saying why', () => {
    const result = checkAttachments([
      file('doc.pdf', 'application/pdf', 100), file('anim.gif', 'image/gif', 100), file('blank.png', 'image/png', 0),
      file('big.png', 'image/png', MAX + 1), file('ok.png', 'image/png', 5),
    ], 0);
    expect(result.accepted.map((f) => f.name)).toEqual(['ok.png']);
    expect(result.rejected.map((r) => [r.file.name, r.problem])).toEqual([
      ['doc.pdf', 'type'], ['anim.gif', 'type'], ['blank.png', 'empty'], ['big.png', 'size'],
    ]);
  });

  it('stops at four per message, counting the ones already attached', () => {
    const five = [1, 2, 3, 4, 5].map((n) => file(`${n}.png`, 'image/png', n));
    expect(checkAttachments(five, 0).accepted.map((f) => f.name)).toEqual(['1.png', '2.png', '3.png', '4.png']);
    const result = checkAttachments(five.slice(0, 3), 2);
    expect(result.accepted.map((f) => f.name)).toEqual(['1.png', '2.png']);
    expect(result.rejected).toEqual([{ file: five[2], problem: 'count' }]);
    // A refused file does not take a place: the next good one still fits.
    expect(checkAttachments([file('x.pdf', 'application/pdf', 1), file('y.png', 'image/png', 1)], 3).accepted.map((f) => f.name)).toEqual(['y.png']);
  });

  it('names the limit in whole megabytes', () => {
    expect(ATTACHMENT_MAX_MB).toBe(5);
  });
});

describe('pastedFileName', () => {
  it('names a pasted screenshot by the time, with the extension of its type', () => {
    const at = new Date('2026-11-25T10:04:05.123Z');
    expect(pastedFileName('image/png', at)).toBe('screenshot-2026-11-25-10-04-05.png');
    expect(pastedFileName('image/jpeg', at)).toBe('screenshot-2026-11-25-10-04-05.jpg');
    expect(pastedFileName('image/webp', at)).toBe('screenshot-2026-11-25-10-04-05.webp');
  });
});
