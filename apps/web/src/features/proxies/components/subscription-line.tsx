import type { Subscription } from '@cellport/shared/schemas/subscriptions';
import { Link } from 'wouter';
import { htmlLang, useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';

const day = (iso: string, language: Parameters<typeof htmlLang>[0]) =>
  new Intl.DateTimeFormat(htmlLang(language), { dateStyle: 'medium' }).format(new Date(iso));

/**
 * In place of the auto-renew switch on a port a card subscription renews: what the card will be charged and when
 * (or that it ends, or that the last charge failed), with a link to manage it on Billing & Renewals.
 */
export function SubscriptionLine({ subscription: s }: { subscription: Subscription }) {
  const { t, language } = useT('proxies');
  const amount = formatUsd(s.amount);
  const text = s.status === 'past_due'
    ? t('subscription.failed', { date: s.nextChargeAt ? day(s.nextChargeAt, language) : '' })
    : s.cancelAtPeriodEnd && s.currentPeriodEnd
      ? t('subscription.ending', { date: day(s.currentPeriodEnd, language) })
      : s.nextChargeAt ? t('subscription.next', { amount, date: day(s.nextChargeAt, language) }) : t('subscription.active');
  return (
    <p className={`px-subscription${s.status === 'past_due' ? ' px-subscription--failed' : ''}`} data-testid="port-subscription">
      <span>{text}</span>{' '}
      <Link href="/billing#subscriptions">{t('subscription.manage')}</Link>
    </p>
  );
}
