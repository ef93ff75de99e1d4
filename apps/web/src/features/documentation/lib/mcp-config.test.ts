import { describe, expect, it } from 'vitest';
import { MCP_KEY_PLACEHOLDER, mcpSnippets } from './mcp-config';

describe('MCP client snippets', () => {
  const s = mcpSnippets('https://proxies.example.com');

  it('point Claude Desktop (through mcp-remote) and Cursor at this server\'s /mcp with the key as bearer', () => {
    const claude = JSON.parse(s.claudeDesktop).mcpServers.cellport;
    expect(claude.args).toEqual(['-y', 'mcp-remote', 'https://proxies.example.com/mcp', '--header', 'Authorization:${CELLPORT_AUTH}']);
    expect(claude.env.CELLPORT_AUTH).toBe(`Bearer ${MCP_KEY_PLACEHOLDER}`);
    expect(JSON.parse(s.cursor)).toEqual({
      mcpServers: { cellport: { url: 'https://proxies.example.com/mcp', headers: { Authorization: `Bearer ${MCP_KEY_PLACEHOLDER}` } } },
    });
  });

  it('tell the inspector the transport, the URL and the header', () => {
    expect(s.inspector).toContain('Streamable HTTP');
    expect(s.inspector).toContain('URL: https://proxies.example.com/mcp');
    expect(s.inspector).toContain(`Bearer ${MCP_KEY_PLACEHOLDER}`);
  });
});
