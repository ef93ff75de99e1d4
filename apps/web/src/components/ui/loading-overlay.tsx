import { i18n } from '../../lib/i18n';

type Size = 'small' | 'default' | 'large';

/**
 * The full-screen loading overlay of spec §2 in its three sizes. It is the Suspense fallback while
 * translations load, so it reads the translator without suspending and falls back to the English text.
 */
export function LoadingOverlay({ size = 'default' }: { size?: Size }) {
  const text = i18n.isInitialized && i18n.exists('common:loading') ? i18n.t('common:loading') : 'Loading your dashboard...';
  return (
    <div className={`loading-overlay loading-overlay--${size}`} role="status" aria-live="polite">
      <span className="loading-overlay__ring" aria-hidden="true" />
      <p>{text}</p>
    </div>
  );
}
