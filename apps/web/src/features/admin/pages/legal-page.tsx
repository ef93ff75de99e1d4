import { LANGUAGES, type Language } from '@cellport/shared/constants';
import type { AdminLegalVersion } from '@cellport/shared/schemas/admin/legal';
import { LEGAL_BODY_MAX, LEGAL_DOCUMENT_KINDS, type LegalDocumentKind } from '@cellport/shared/schemas/legal';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { MarkdownView } from '../../../components/ui/markdown-view';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { publishLegal, useLegalVersions } from '../api/legal';
import { useAdminMutation } from '../api/use-admin-mutation';
import { PageTitle } from '../components/page-title';
import { QueryView } from '../components/query-view';
import { SelectField } from '../components/select-field';
import { Tabs } from '../components/tabs';

/**
 * Legal texts (issue 14, item 8): the Terms of Service and the Refund Policy per language, written in Markdown with a
 * live preview. Publishing makes a new version (number, time, author; audited); customers see the latest at
 * /{language}/terms and /{language}/refund-policy, and sign-up records the version each customer accepted.
 */
export function LegalPage() {
  const { t, language: uiLanguage } = useT(['admin', 'common']);
  const [kind, setKind] = useState<LegalDocumentKind>('terms');
  const [language, setLanguage] = useState<Language>(uiLanguage);
  const versions = useLegalVersions(kind, language);
  return (
    <>
      <PageTitle title={t('nav.legal')} description={t('legal.description')} />
      <Tabs label={t('legal.documents')} tabs={LEGAL_DOCUMENT_KINDS.map((k) => ({ key: k, label: t(`legal.kinds.${k}`) }))}
        selected={kind} onSelect={(k) => setKind(k as LegalDocumentKind)}>
        <SelectField className="admin-legal__language" label={t('legal.language')} value={language}
          options={LANGUAGES.map((l) => ({ value: l, label: t(`common:languages.${l}`) }))} onChange={(l) => setLanguage(l as Language)} />
        <QueryView query={versions}>
          {(data) => <LegalEditor key={`${kind}/${language}`} kind={kind} language={language} versions={data.versions} />}
        </QueryView>
      </Tabs>
    </>
  );
}

function LegalEditor({ kind, language, versions }: { kind: LegalDocumentKind; language: Language; versions: AdminLegalVersion[] }) {
  const { t, language: uiLanguage } = useT(['admin', 'common']);
  const latest = versions[0];
  const [text, setText] = useState(latest?.body ?? '');
  const [touched, setTouched] = useState(false);
  // A new version arrived (this operator's or another's): start from it.
  useEffect(() => { setText(latest?.body ?? ''); setTouched(false); }, [latest?.version, latest?.body]);
  const publish = useAdminMutation(publishLegal, { onSuccess: (r) => toast.success(t('legal.published', { version: r.version.version })) });
  const empty = !text.trim();
  const unchanged = text.trim() === (latest?.body ?? '').trim();
  const author = (v: AdminLegalVersion) => v.authorEmail ?? t('legal.defaultAuthor');
  const lang = language === 'cn' ? 'zh-CN' : language;
  return (
    <div className="admin-legal">
      <p className="admin-muted" aria-live="polite">
        {latest ? t('legal.current', { version: latest.version, date: dateTime(latest.createdAt, uiLanguage), author: author(latest) }) : t('legal.none')}
        {' '}<a href={`/${language}/${kind}`} target="_blank" rel="noopener">{t('legal.openPublic')}</a>
      </p>
      <form className="admin-legal__grid" noValidate onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (!empty && !unchanged) publish.mutate({ kind, language, body: text });
      }}>
        <div className="field admin-legal__editor">
          <label htmlFor="legal-text">{t('legal.text')}</label>
          <textarea id="legal-text" lang={lang} rows={22} maxLength={LEGAL_BODY_MAX} value={text} spellCheck
            onChange={(e) => setText(e.target.value)} aria-describedby="legal-text-hint"
            aria-invalid={touched && empty ? true : undefined} />
          <p id="legal-text-hint" className="field__hint">{t('legal.markdownHint')}</p>
          {touched && empty ? <p className="field__error" role="alert">{t('legal.required')}</p> : null}
        </div>
        <section className="admin-legal__preview" aria-labelledby="legal-preview-title">
          <h2 id="legal-preview-title">{t('legal.preview')}</h2>
          <div className="admin-legal__paper" lang={lang}>
            {empty ? <p className="admin-muted">{t('legal.previewEmpty')}</p> : <MarkdownView source={text} />}
          </div>
        </section>
        <div className="admin-legal__actions">
          <Button type="submit" busy={publish.isPending} disabled={unchanged}>{t('legal.publish')}</Button>
          {unchanged ? <span className="admin-muted">{t('legal.unchanged')}</span> : null}
        </div>
      </form>
      <section className="admin-section" aria-labelledby="legal-history">
        <h2 id="legal-history">{t('legal.history')}</h2>
        <div className="admin-table-wrap" tabIndex={0} role="region" aria-labelledby="legal-history">
          <table className="admin-table">
            <thead><tr>
              <th scope="col" className="num">{t('legal.version')}</th>
              <th scope="col">{t('legal.publishedAt')}</th>
              <th scope="col">{t('legal.author')}</th>
              <th scope="col">{t('fields.actions')}</th>
            </tr></thead>
            <tbody>
              {versions.map((v) => (
                <tr key={v.version}>
                  <td className="num">{v.version}</td>
                  <td>{dateTime(v.createdAt, uiLanguage)}</td>
                  <td>{author(v)}</td>
                  <td>
                    <Button size="sm" variant="link" onClick={() => setText(v.body)}>{t('legal.loadNamed', { version: v.version })}</Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
