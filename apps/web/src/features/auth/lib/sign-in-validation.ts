import { credentialsSchema, recoveryCodeSchema, totpCodeSchema } from '@cellport/shared/schemas/auth';
import { validateFields, type FieldErrors } from './field-errors';

export { translateMessage } from './message-key';

export type SignInValues = { login: string; password: string; code: string };
export type SignInCheck = { ok: true; data: SignInValues } | { ok: false; errors: FieldErrors };

/**
 * The sign-in form's checks with the shared schemas: credentials always, on the code step the 6-digit code or, with
 * `recovery`, a recovery code. Loaded on demand by the sign-in page so zod is not part of its first download
 * (bench/BENCHMARKS.md).
 */
export function validateSignIn(values: SignInValues, codeStep: boolean, recovery = false): SignInCheck {
  const credentials = validateFields(credentialsSchema, values);
  const code = codeStep ? validateFields(recovery ? recoveryCodeSchema : totpCodeSchema, { code: values.code }) : null;
  if (!credentials.ok || (code && !code.ok)) {
    return { ok: false, errors: { ...(credentials.ok ? {} : credentials.errors), ...(code && !code.ok ? code.errors : {}) } };
  }
  return { ok: true, data: { ...credentials.data, code: code?.ok ? code.data.code : '' } };
}
