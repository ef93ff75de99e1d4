import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../../../lib/i18n';
import { apiExamples, EXAMPLE_LANGUAGES, type ExampleLanguage } from '../lib/examples';
import { CodeBlock } from './code-block';

const TAB_NAMES: Record<ExampleLanguage, string> = { curl: 'curl', python: 'Python (requests)', node: 'Node.js (fetch)' };

/** Listing ports and rotating one with an API key, in curl, Python and Node, as tabs (arrow keys move between them). */
export function ExamplesCard() {
  const { t } = useT('docs');
  const [active, setActive] = useState<ExampleLanguage>('curl');
  const id = useId();
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const examples = apiExamples(location.origin, {
    key: t('examples.comments.key'), list: t('examples.comments.list'), rotate: t('examples.comments.rotate'), tooSoon: t('examples.comments.tooSoon'),
  })[active];
  const onKey = (event: KeyboardEvent) => {
    const at = EXAMPLE_LANGUAGES.indexOf(active);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = EXAMPLE_LANGUAGES[(at + step + EXAMPLE_LANGUAGES.length) % EXAMPLE_LANGUAGES.length]!;
    setActive(next);
    tabs.current[EXAMPLE_LANGUAGES.indexOf(next)]?.focus();
  };
  return (
    <section className="card docs-section" aria-labelledby="docs-examples-title">
      <h2 id="docs-examples-title" className="docs-section__title">{t('examples.title')}</h2>
      <p className="docs-section__lead">{t('examples.lead')}</p>
      <div role="tablist" aria-label={t('examples.languages')} className="docs-tabs" onKeyDown={onKey}>
        {EXAMPLE_LANGUAGES.map((lang, i) => (
          <button key={lang} ref={(el) => { tabs.current[i] = el; }} type="button" role="tab" id={`${id}-${lang}`}
            aria-selected={active === lang} aria-controls={`${id}-panel`} tabIndex={active === lang ? 0 : -1}
            className="docs-tabs__tab" onClick={() => setActive(lang)}>
            {TAB_NAMES[lang]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${active}`} className="docs-tabs__panel">
        <h3 className="docs-subtitle">{t('examples.list')}</h3>
        <CodeBlock code={examples.list} label={`${t('examples.list')} — ${TAB_NAMES[active]}`} />
        <h3 className="docs-subtitle">{t('examples.rotate')}</h3>
        <p className="docs-muted">{t('examples.rotateNote')}</p>
        <CodeBlock code={examples.rotate} label={`${t('examples.rotate')} — ${TAB_NAMES[active]}`} />
      </div>
    </section>
  );
}
