// How MCP clients connect to this server's /mcp with an API key. The snippets are not translated (they are config
// files); the text around them is, from the docs locale (mcp.*).
import { MCP_PATH } from '@cellport/shared/schemas/mcp-constants';

export const MCP_KEY_PLACEHOLDER = 'cpk_YOUR_API_KEY';

export interface McpSnippets { url: string; claudeDesktop: string; cursor: string; inspector: string }

export function mcpSnippets(origin: string): McpSnippets {
  const url = `${origin}${MCP_PATH}`;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return {
    url,
    // Claude Desktop starts local (stdio) servers from its config file; mcp-remote bridges to a remote server and
    // sends the header. The header value sits in env: Windows splits arguments that contain spaces.
    claudeDesktop: json({
      mcpServers: {
        cellport: {
          command: 'npx',
          args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${CELLPORT_AUTH}'],
          env: { CELLPORT_AUTH: `Bearer ${MCP_KEY_PLACEHOLDER}` },
        },
      },
    }),
    // Cursor speaks Streamable HTTP itself: ~/.cursor/mcp.json or .cursor/mcp.json in a project.
    cursor: json({ mcpServers: { cellport: { url, headers: { Authorization: `Bearer ${MCP_KEY_PLACEHOLDER}` } } } }),
    inspector: `npx @modelcontextprotocol/inspector\n\nTransport Type: Streamable HTTP\nURL: ${url}\nHeader: Authorization: Bearer ${MCP_KEY_PLACEHOLDER}`,
  };
}
