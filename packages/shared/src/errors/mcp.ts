// Issue 16: the MCP server for AI agents (/mcp) takes an API key only.
export const MCP_ERRORS = {
  API_KEY_INVALID: 'Invalid API key: it is unknown, revoked, or its account is closed. Check the key, or create a new one on the Documentation page.',
  API_KEY_READ_ONLY: 'This API key can only read. Use a key with the "manage" or "full" scope to change anything.',
  API_KEY_CANNOT_SPEND: 'This API key cannot spend money. Use a key with the "full" scope to buy or renew ports.',
  API_KEY_SPEND_LIMIT: 'This would pass the monthly spending limit of this API key. Raise it by creating a key with a higher limit, or pay on the dashboard.',
  API_KEY_REQUIRED: 'This endpoint needs a valid API key: send "Authorization: Bearer cpk_…". Create a key on the Documentation page.',
} as const;
