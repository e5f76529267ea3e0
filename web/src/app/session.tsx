/**
 * The client session (spec sections 3 and 4): the token in local storage, the current user
 * fetched through react-query, and `reloadUser` to re-fetch it (the spec's flag). Features
 * read the user with useSession(); only app/ writes the token.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { useCurrentUserQuery, type UserRecord } from '../lib/api/current-user.ts';
import { currentUserKey } from '../lib/query-client.ts';
import { clearToken, readToken, storeToken } from '../lib/token.ts';

export interface Session {
  token: string | null;
  user: UserRecord | undefined;
  loading: boolean;
  error: Error | null;
  signIn: (token: string) => void;
  signOut: () => void;
  reloadUser: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }): ReactElement {
  const [token, setToken] = useState<string | null>(() => readToken());
  const client = useQueryClient();
  const query = useCurrentUserQuery(token !== null);
  const signIn = useCallback((next: string) => {
    storeToken(next);
    setToken(next);
  }, []);
  const signOut = useCallback(() => {
    clearToken();
    setToken(null);
    client.removeQueries({ queryKey: ['ledger'] });
  }, [client]);
  const reloadUser = useCallback(async () => {
    await client.invalidateQueries({ queryKey: currentUserKey });
  }, [client]);
  const value = useMemo<Session>(
    () => ({
      token,
      user: token ? query.data : undefined,
      loading: token !== null && query.isPending,
      error: query.error,
      signIn,
      signOut,
      reloadUser,
    }),
    [token, query.data, query.isPending, query.error, signIn, signOut, reloadUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** For pages that render only behind the guard: the user is loaded. */
export function useUser(): UserRecord {
  const { user } = useSession();
  if (!user) throw new Error('useUser before the session guard loaded the user');
  return user;
}
