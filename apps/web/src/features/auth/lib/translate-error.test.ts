import { ERRORS } from '@cellport/shared/errors';
import type { TFunction } from '../../../lib/i18n';
import { describe, expect, it } from 'vitest';
import { errorCode, translateError } from './translate-error';

const t = ((key: string) => `<${key}>`) as unknown as TFunction;

describe('errorCode', () => {
  it('prefers the code the server sent', () => {
    expect(errorCode('WRONG_PASSWORD', 'anything')).toBe('WRONG_PASSWORD');
  });

  it('recognises a known English message when the code is missing or unknown', () => {
    expect(errorCode(undefined, ERRORS.EMAIL_TAKEN)).toBe('EMAIL_TAKEN');
    expect(errorCode('SOMETHING_NEW', ERRORS.RATE_LIMITED)).toBe('RATE_LIMITED');
  });

  it('answers null for errors it cannot place', () => {
    expect(errorCode(null, 'Disk on fire')).toBeNull();
  });
});

describe('translateError', () => {
  it('translates known errors by code and keeps unknown text', () => {
    expect(translateError(t, 'WRONG_CODE', ERRORS.WRONG_CODE)).toBe('<errors:WRONG_CODE>');
    expect(translateError(t, null, 'Disk on fire')).toBe('Disk on fire');
  });
});
