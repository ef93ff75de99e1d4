import type { LegalDocument, LegalDocumentKind } from '@cellport/shared/schemas/legal';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { MarkdownView } from '../../../components/ui/markdown-view';
import { Spinner } from '../../../components/ui/spinner';
import { htmlLang, useT } from '../../../lib/i18n';
import { getLegalDocument } from '../api/get-legal-document';
import { FormAlert } from '../components/form-alert';
import { PublicLayout } from '../components/public-layout';

/**
 * /{language}/terms and /{language}/refund-policy (issue 14, item 8): the latest version the operators published in
 * the console, in the reader's language, with its number and date. Public: sign-up step 3 links here.
 */
export default function LegalPage() {
  const { t, language } = useT(['legal', 'auth', 'common']);
  const [location] = useLocation();
  const kind: LegalDocumentKind = location.endsWith('/refund-policy') ? 'refund-policy' : 'terms';
  const other: LegalDocumentKind = kind === 'terms' ? 'refund-policy' : 'terms';
  const [state, setState] = useState<{ doc?: LegalDocument; failed?: boolean }>({});
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setState({});
    getLegalDocument(kind, language).then(
      (doc) => { if (live) setState({ doc }); },
      () => { if (live) setState({ failed: true }); },
    );
    return () => { live = false; };
  }, [kind, language, attempt]);
  const title = t(`titles.${kind}`);
  useEffect(() => { document.title = `${title} · ${t('common:appName')}`; }, [title, t]);
  const date = state.doc
    ? new Intl.DateTimeFormat(htmlLang(language), { dateStyle: 'long' }).format(new Date(state.doc.publishedAt))
    : '';
  return (
    <PublicLayout t={t} wide>
      <article className="legal-page" aria-labelledby="legal-title" aria-busy={!state.doc && !state.failed}>
        <h1 id="legal-title" className="auth-title">{title}</h1>
        {state.doc ? (
          <>
            <p className="auth-muted legal-page__meta">{t('meta', { version: state.doc.version, date })}</p>
            <MarkdownView source={state.doc.body} className="legal-page__body" />
          </>
        ) : state.failed ? (
          <FormAlert tone="error">
            {t('loadFailed')}{' '}
            <button type="button" className="auth-link legal-page__retry" onClick={() => setAttempt((n) => n + 1)}>{t('retry')}</button>
          </FormAlert>
        ) : (
          <Spinner size={22} label={t('loading')} />
        )}
        <nav className="legal-page__links" aria-label={t('seeAlso')}>
          <Link href={`/${other}`} className="auth-link">{t(`titles.${other}`)}</Link>
          <Link href="/sign-up" className="auth-link">{t('toSignUp')}</Link>
          <Link href="/sign-in" className="auth-link">{t('toSignIn')}</Link>
        </nav>
      </article>
    </PublicLayout>
  );
}
