import { REALTIME_EVENT_NAMES } from '@cellport/shared/constants';
import type { RealtimeEventName, RealtimeEvents } from '@cellport/shared/schemas/realtime';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectRealtime } from '../../lib/socket';
import { applyRealtimeEvent } from './apply-realtime-event';

// One attempt per page load (spec §4: "retried only on page load"): React's development double mount and a
// remount of the shell reuse it, and the events always go to the query client of the shell on screen.
let attempt: Promise<unknown> | null = null;
let currentClient: QueryClient | null = null;

/** Mounted once by the shell: opens the realtime connection and applies its events. Renders nothing. */
export function RealtimeConnection() {
  const queryClient = useQueryClient();
  useEffect(() => {
    currentClient = queryClient;
    attempt ??= connectRealtime({
      events: REALTIME_EVENT_NAMES,
      onEvent: (name, payload) => {
        try {
          applyRealtimeEvent(name as RealtimeEventName, payload as RealtimeEvents[RealtimeEventName], currentClient);
        } catch (error) {
          // A malformed event must not break the page; it is logged like the other realtime failures.
          console.log(`Realtime: could not apply '${name}'`, error);
        }
      },
    });
  }, [queryClient]);
  return null;
}
