// Issue 16: the MCP server for AI agents (/mcp) takes an API key only.
export const MCP_ERRORS = {
  API_KEY_REQUIRED: 'This endpoint needs a valid API key: send "Authorization: Bearer cpk_…". Create a key on the Documentation page.',
} as const;
