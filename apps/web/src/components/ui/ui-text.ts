import { i18n } from '../../lib/i18n';

/**
 * A common-namespace string for primitives that must render without suspending (they may sit in a fallback).
 * Falls back to the English text when translations are not loaded yet.
 */
export function uiText(key: string, english: string): string {
  return i18n.isInitialized && i18n.exists(`common:${key}`) ? i18n.t(`common:${key}`) : english;
}
