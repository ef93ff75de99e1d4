import * as z from 'zod/mini';

export type FieldErrors = Partial<Record<string, string>>;
export type Validation<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * Validates form values with a shared schema and keeps the first message per field (the schemas list their
 * rules in the spec's order, so the first one is the one to show). Form-level issues land under ''.
 */
export function validateFields<S extends z.ZodMiniType>(schema: S, values: unknown): Validation<z.output<S>> {
  const result = z.safeParse(schema, values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** True when the errors object holds no message. */
export const isClean = (errors: FieldErrors) => Object.values(errors).every((m) => !m);
