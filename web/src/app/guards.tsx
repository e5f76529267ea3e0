/**
 * Route guards (spec section 4): protected pages need a token and a loaded user (loading
 * view meanwhile). Only a refusal of the session ends it: a 401 (expired or ended token) or
 * a 403 (suspended account) shows the error, clears the token and goes to /login. Anything
 * else keeps the session: a 429 waits for its Retry-After (the query retries, and a page -
 * not the full-screen loading view - says when the account will load), and a fetch that still failed offers Try again (a deviation from the
 * spec, which signs out on any failure: docs/decisions/0012);
 * guest pages send a signed-in user to /dashboard; the admin guard sends others to
 * /dashboard with a message.
 */
import { useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { LoadingView } from '../components/ui/LoadingView.tsx';
import { HeldSessionPage, SessionTroublePage } from './ErrorPages.tsx';
import { ApiError } from '../lib/api-client.ts';
import { useHeldSeconds } from '../components/ui/RateLimitNotice.tsx';
import { useToast } from '../components/ui/Toaster.tsx';
import { safeNext } from '../lib/next-path.ts';
import { useSession } from './session.tsx';

export function ProtectedRoute({ children }: { children: ReactNode }): ReactElement {
  const session = useSession();
  const location = useLocation();
  const notify = useToast();
  const reported = useRef(false);
  const { t } = useTranslation();
  const failed = session.token !== null && endsSession(session.error);
  const heldSeconds = useHeldSeconds({ isFetching: session.loading, error: session.error });
  useEffect(() => {
    if (!failed || reported.current) return;
    reported.current = true;
    notify({ tone: 'error', message: session.error?.message || t('guards.requestFailed') });
    session.signOut();
  }, [failed, notify, session]);
  if (!session.token || failed) {
    const next =
      location.pathname === '/dashboard' ? '' : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    return <Navigate to={`/login${next}`} replace />;
  }
  if (!session.user) {
    if (heldSeconds > 0) return <HeldSessionPage seconds={heldSeconds} />;
    if (session.error && !session.loading)
      return <SessionTroublePage message={session.error.message} onRetry={() => void session.reloadUser()} />;
    return <LoadingView />;
  }
  return <>{children}</>;
}

/** The server refused the session itself: expired or ended token (401), suspended account (403). */
function endsSession(error: Error | null): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

export function GuestRoute({ children }: { children: ReactNode }): ReactElement {
  const { token } = useSession();
  const [params] = useSearchParams();
  // A deep link that needed a sign-in (/login?next=/user/<account>) continues there.
  if (token) return <Navigate to={safeNext(params.get('next'))} replace />;
  return <>{children}</>;
}

export function AdminRoute({ children }: { children: ReactNode }): ReactElement {
  const { user } = useSession();
  const notify = useToast();
  const { pathname } = useLocation();
  const { t } = useTranslation();
  const refused = user !== undefined && !user.isAdmin;
  const message = pathname.startsWith('/users') ? t('guards.adminsOnlyUsers') : t('guards.adminsOnly');
  useEffect(() => {
    if (refused) notify({ tone: 'warning', message });
  }, [refused, notify, message]);
  if (refused) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
