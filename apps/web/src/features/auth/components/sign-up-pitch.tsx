import type { TFunction } from '../../../lib/i18n';

const groups = [
  { key: 'billing', points: ['crypto', 'plans', 'renewal'] },
  { key: 'tools', points: ['api', 'rotation', 'whitelist'] },
] as const;

/** Spec §1: what a customer gets — automated billing and proxy management tools. */
export function SignUpPitch({ t }: { t: TFunction }) {
  return (
    <div className="auth-pitch">
      <h2 className="auth-pitch__title">{t('signUp.pitch.title')}</h2>
      <p className="auth-pitch__lead">{t('signUp.pitch.lead')}</p>
      {groups.map((group) => (
        <section key={group.key} className="auth-pitch__group">
          <h3>{t(`signUp.pitch.${group.key}.title`)}</h3>
          <ul>
            {group.points.map((point) => (
              <li key={point}>
                <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                  <circle cx="10" cy="10" r="10" fill="currentColor" opacity=".14" />
                  <path d="m6 10.5 2.5 2.5L14 7.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
                {t(`signUp.pitch.${group.key}.${point}`)}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
