// API keys' prefix, name limit and scopes (issue 5; issue 26, item 9): plain values, no zod. api-keys.ts builds its
// schemas from them and re-exports them; the web imports them from here, so the API keys card does not load the
// schemas and zod (issue 31, item 4).

export const API_KEY_PREFIX = 'cpk_';
/** Characters of the key shown in the list (the key itself is shown once). */
export const API_KEY_SHOWN_CHARS = 8;
export const API_KEY_NAME_MAX = 60;
export const API_KEYS_PER_CUSTOMER_MAX = 20;

/**
 * What a key may do (issue 26, item 9): 'read' answers GET requests and read-only MCP tools only; 'manage' may also
 * change and rotate ports but never spends; 'full' may buy and renew too, up to its optional monthly cap.
 */
export const API_KEY_SCOPES = ['read', 'manage', 'full'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
