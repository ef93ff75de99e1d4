import { Link } from 'wouter';
import { useT } from '../../../lib/i18n';
import { rotationLinkExamples } from '../lib/examples';
import { CodeBlock } from './code-block';

/** What the rotation link is, how to call it from a script or a router, and the once-a-minute limit. */
export function RotationLinkCard() {
  const { t } = useT(['docs', 'common']);
  const examples = rotationLinkExamples(location.origin, {
    answer: t('rotation.comments.answer'), cron: t('rotation.comments.cron'), router: t('rotation.comments.router'),
  });
  return (
    <section className="card docs-section" aria-labelledby="docs-rotation-title">
      <h2 id="docs-rotation-title" className="docs-section__title">{t('rotation.title')}</h2>
      <p>{t('rotation.what')}</p>
      <p>{t('rotation.where')} <Link href="/proxies">{t('common:nav.proxies')}</Link>.</p>
      <p className="docs-note" role="note"><strong>{t('rotation.limitTitle')}</strong> {t('rotation.limit')}</p>
      <h3 className="docs-subtitle">{t('rotation.script')}</h3>
      <CodeBlock code={examples.curl} label={t('rotation.script')} />
      <h3 className="docs-subtitle">{t('rotation.cron')}</h3>
      <CodeBlock code={examples.cron} label={t('rotation.cron')} />
      <h3 className="docs-subtitle">{t('rotation.router')}</h3>
      <CodeBlock code={examples.mikrotik} label={t('rotation.router')} />
      <p className="docs-muted">{t('rotation.secret')}</p>
    </section>
  );
}
