import { useCallback, useEffect, useState } from 'react';
import { forgetCaptcha, passCaptcha } from '../lib/pass-captcha';

export type CaptchaStatus = 'checking' | 'passed' | 'failed';

/**
 * The hidden captcha of the sign-in page: it starts in the background when the page opens. `ensure()` waits
 * for it (or retries a failed run) and resolves true once this browser has passed.
 */
export function useHiddenCaptcha() {
  const [status, setStatus] = useState<CaptchaStatus>('checking');

  const ensure = useCallback(async (fresh = false): Promise<boolean> => {
    if (fresh) forgetCaptcha();
    setStatus((s) => (s === 'passed' && !fresh ? s : 'checking'));
    try {
      await passCaptcha();
      setStatus('passed');
      return true;
    } catch {
      setStatus('failed');
      return false;
    }
  }, []);

  useEffect(() => {
    void ensure();
  }, [ensure]);

  return { status, ensure };
}
