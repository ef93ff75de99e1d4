import { LANGUAGES, type Language } from '@cellport/shared/constants';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';

export type Names = Record<Language, string>;
export const emptyNames = (): Names => ({ en: '', ru: '', cn: '' });
export const namesFilled = (names: Names) => LANGUAGES.every((lng) => names[lng].trim().length > 0);

/** One name per language (en, ru, cn), each labelled with its language. */
export function NamesFields({ label, value, onChange, touched }: { label: string; value: Names; onChange: (next: Names) => void; touched: boolean }) {
  const { t } = useT(['admin', 'common']);
  return (
    <fieldset className="admin-fieldset">
      <legend>{label}</legend>
      {LANGUAGES.map((lng) => (
        <TextField
          key={lng}
          label={t(`common:languages.${lng}`)}
          lang={lng === 'cn' ? 'zh-CN' : lng}
          value={value[lng]}
          maxLength={100}
          onChange={(e) => onChange({ ...value, [lng]: e.target.value })}
          error={touched && !value[lng].trim() ? t('admin:required') : undefined}
        />
      ))}
    </fieldset>
  );
}
