/** PostgreSQL (pg and PGlite) error codes the services turn into answers instead of 500s. */
const code = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;
export const isUniqueViolation = (error: unknown): boolean => code(error) === '23505';
export const isForeignKeyViolation = (error: unknown): boolean => code(error) === '23503';
/** The constraint a violation names (pg puts it on the error; PGlite too). */
export const constraintOf = (error: unknown): string => String((error as { constraint?: string } | null)?.constraint ?? '');
