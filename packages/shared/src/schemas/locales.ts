import * as z from 'zod/mini';

/** GET /locales/:lng/:ns: one namespace of the translations (an unknown language falls back to English). */
export const localeFileParamsSchema = z.object({
  lng: z.string().check(z.maxLength(5)),
  ns: z.string().check(z.maxLength(40), z.regex(/^[a-z-]+\.js(on)?$/)),
});
