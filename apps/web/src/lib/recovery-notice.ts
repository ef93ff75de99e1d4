// After a sign-in with a two-factor recovery code (issue 27, item 5) the page leaves by a native form post, so the
// count of codes left is handed to the signed-in app through sessionStorage and shown once there.
const KEY = 'cellport.recoveryCodesLeft';

export function rememberRecoveryCodesLeft(left: number): void {
  try { sessionStorage.setItem(KEY, String(left)); } catch { /* storage off: the e-mail still says it */ }
}

/** The count left by the sign-in page, once (it is removed as it is read); null when there is none. */
export function takeRecoveryCodesLeft(): number | null {
  try {
    const value = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return value === null || !/^\d+$/.test(value) ? null : Number(value);
  } catch {
    return null;
  }
}
