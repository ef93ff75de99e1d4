// Where the MCP server answers and the names of its tools (issue 16): plain values, no zod. mcp.ts builds the tools'
// schemas and re-exports them; the Documentation page imports them from here and loads neither those schemas nor
// zod (issue 31, item 4).

export const MCP_PATH = '/mcp';

export const MCP_TOOLS = {
  listPorts: 'list_ports',
  getPort: 'get_port',
  rotatePort: 'rotate_port',
  updatePort: 'update_port',
  renewPorts: 'renew_ports',
  quotePurchase: 'quote_purchase',
  buyPorts: 'buy_ports',
  getBalance: 'get_balance',
  getTraffic: 'get_traffic',
  listInvoices: 'list_invoices',
  listTariffs: 'list_tariffs',
  listFingerprintPresets: 'list_fingerprint_presets',
  setPortFingerprint: 'set_port_fingerprint',
  checkPortFingerprint: 'check_port_fingerprint',
} as const;
export type McpToolName = (typeof MCP_TOOLS)[keyof typeof MCP_TOOLS];
