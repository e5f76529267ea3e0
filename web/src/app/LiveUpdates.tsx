/**
 * The signed-in tab's one live updates stream (lib/live-events.ts), shared by every screen:
 * mounted once above the router, open while there is a signed-in user, stopped at sign-out.
 * It re-opens with the token the app holds then (the one every API call sends: lib/token.ts).
 * Its events update the caches and raise toasts (./live-cache.ts).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactElement } from 'react';
import { useToast } from '../components/ui/Toaster.tsx';
import { connectLiveEvents } from '../lib/live-events.ts';
import { currentUserKey, ledgerKey } from '../lib/query-client.ts';
import { readToken } from '../lib/token.ts';
import { applyLiveEvent } from './live-cache.ts';
import { useSession } from './session.tsx';

export function LiveUpdates(): ReactElement | null {
  const { token, user } = useSession();
  const client = useQueryClient();
  const notify = useToast();
  const signedIn = token !== null && user !== undefined;
  useEffect(() => {
    if (!signedIn || token === null) return undefined;
    const connection = connectLiveEvents({
      token: readToken,
      onEvent: (event) => void applyLiveEvent(client, notify, event),
      onReconnect: () => void client.invalidateQueries({ queryKey: ledgerKey }),
      // The session check (get-user-info) then finds the session over and signs out.
      onRefused: () => void client.invalidateQueries({ queryKey: currentUserKey }),
    });
    return () => connection.stop();
  }, [signedIn, token, client, notify]);
  return null;
}
