import { LANGUAGES, type Language } from '@cellport/shared/constants';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';

export type Names = Record<Language, string>;
export const emptyNames = (): Names => ({ en: '', ru: '', cn: '' });
export const namesFilled = (names: Names) => LANGUAGES.every((lng) => names[lng].trim().length > 0);

/**
 * One name per language (en, ru, cn), each labelled with its language. `englishOnly`: only English is required, the
 * others read English while empty (a region's names, issue 27 item 12), and each says so.
 */
export function NamesFields({ label, value, onChange, touched, englishOnly = false }: {
  label: string; value: Names; onChange: (next: Names) => void; touched: boolean; englishOnly?: boolean;
}) {
  const { t } = useT(['admin', 'common']);
  const optional = (lng: Language) => englishOnly && lng !== 'en';
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
          hint={optional(lng) ? t('admin:catalog.nameFallbackHint') : undefined}
          error={touched && !optional(lng) && !value[lng].trim() ? t('admin:required') : undefined}
        />
      ))}
    </fieldset>
  );
}
