import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../lib/i18n';
import { ApiKeysCard } from './components/api-keys-card';
import { ApiReference } from './components/api-reference';
import { ExamplesCard } from './components/examples-card';
import { McpCard } from './components/mcp-card';
import { RotationLinkCard } from './components/rotation-link-card';
import './documentation.css';

/** Documentation: API keys, examples, the rotation link, connecting an AI agent (MCP), and the API reference from the OpenAPI document. */
export default function DocumentationPage() {
  const { t } = useT(['docs', 'common']);
  return (
    <div className="docs">
      <PageHeader title={t('common:nav.documentation')} description={t('description')} />
      <nav className="docs-toc" aria-label={t('toc')}>
        <a href="#docs-keys-title">{t('keys.title')}</a>
        <a href="#docs-examples-title">{t('examples.title')}</a>
        <a href="#docs-rotation-title">{t('rotation.title')}</a>
        <a href="#docs-mcp-title">{t('mcp.title')}</a>
        <a href="#docs-reference-title">{t('reference.title')}</a>
      </nav>
      <ApiKeysCard />
      <ExamplesCard />
      <RotationLinkCard />
      <McpCard />
      <ApiReference />
    </div>
  );
}
