import { NOTIFICATION_POLL_MS } from '@cellport/shared/constants';
import { useEffect } from 'react';
import { ApiError } from '../../lib/api';
import { useLanguage } from '../../lib/language';
import { useAppStore } from '../../store';
import { pollNotifications } from './api/poll-notifications';

/**
 * Polls the notifications every 3 s (spec §9) while the shell is open and loads them into the store. The next
 * poll is scheduled when the previous one has answered, so a slow server never gets overlapping requests. A
 * hidden tab skips its polls and polls at once when it is shown again. A 401 stops polling: the session is over
 * and the shell's queries take the visitor to sign-in.
 */
export function useNotificationsPoll(): void {
  const loadNotifications = useAppStore((s) => s.loadNotifications);
  // The server renders the texts in the page's language: another language starts a new poll without an ETag.
  const language = useLanguage();
  useEffect(() => {
    let etag: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let inFlight = false;

    const tick = async () => {
      clearTimeout(timer);
      if (stopped || inFlight) return;
      if (document.visibilityState !== 'hidden') {
        inFlight = true;
        try {
          const result = await pollNotifications(etag);
          if (result.changed && !stopped) { etag = result.etag; loadNotifications(result.data); }
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) stopped = true;
        } finally {
          inFlight = false;
        }
      }
      if (!stopped) timer = setTimeout(() => void tick(), NOTIFICATION_POLL_MS);
    };
    const onVisible = () => { if (document.visibilityState === 'visible') void tick(); };

    void tick();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [loadNotifications, language]);
}

/** Mounted once by the shell: runs the poll, renders nothing. */
export function NotificationsPoller() {
  useNotificationsPoll();
  return null;
}
