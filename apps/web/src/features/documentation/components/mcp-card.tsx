import { MCP_TOOLS } from '@cellport/shared/schemas/mcp-constants';
import { useT } from '../../../lib/i18n';
import { mcpSnippets } from '../lib/mcp-config';
import { CodeBlock } from './code-block';

/** Connecting an AI agent over MCP: this server's /mcp with an API key, in Claude Desktop, Cursor and the inspector. */
export function McpCard() {
  const { t } = useT('docs');
  const s = mcpSnippets(location.origin);
  return (
    <section className="card docs-section" aria-labelledby="docs-mcp-title">
      <h2 id="docs-mcp-title" className="docs-section__title">{t('mcp.title')}</h2>
      <p className="docs-section__lead">{t('mcp.lead')}</p>
      <p className="docs-muted">{t('mcp.url')} <code>{s.url}</code></p>
      <p className="docs-muted">{t('mcp.tools')} <code>{Object.values(MCP_TOOLS).join(', ')}</code></p>
      <p className="docs-note">{t('mcp.keyNote')}</p>
      <h3 className="docs-subtitle">{t('mcp.claude.title')}</h3>
      <p className="docs-muted">{t('mcp.claude.note')}</p>
      <CodeBlock code={s.claudeDesktop} label={t('mcp.claude.title')} />
      <h3 className="docs-subtitle">{t('mcp.cursor.title')}</h3>
      <p className="docs-muted">{t('mcp.cursor.note')}</p>
      <CodeBlock code={s.cursor} label={t('mcp.cursor.title')} />
      <h3 className="docs-subtitle">{t('mcp.inspector.title')}</h3>
      <p className="docs-muted">{t('mcp.inspector.note')}</p>
      <CodeBlock code={s.inspector} label={t('mcp.inspector.title')} />
    </section>
  );
}
