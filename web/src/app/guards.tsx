/**
 * Route guards (spec section 4): protected pages need a token and a loaded user (loading
 * view meanwhile; a failed fetch shows the error, clears the token and goes to /login);
 * guest pages send a signed-in user to /dashboard; the admin guard sends others to
 * /dashboard with a message.
 */
import { useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { LoadingView } from '../components/ui/LoadingView.tsx';
import { ApiError } from '../lib/api-client.ts';
import { useToast } from '../components/ui/Toaster.tsx';
import { safeNext } from '../lib/next-path.ts';
import { useSession } from './session.tsx';

export function ProtectedRoute({ children }: { children: ReactNode }): ReactElement {
  const session = useSession();
  const location = useLocation();
  const notify = useToast();
  const reported = useRef(false);
  // A refetch refused by the server (expired token, suspended account) ends the session too.
  const refused = session.error instanceof ApiError && (session.error.status === 401 || session.error.status === 403);
  const failed = session.token !== null && session.error !== null && (!session.user || refused);
  useEffect(() => {
    if (!failed || reported.current) return;
    reported.current = true;
    notify({ tone: 'error', message: session.error?.message || 'Request failed' });
    session.signOut();
  }, [failed, notify, session]);
  if (!session.token || failed) {
    const next =
      location.pathname === '/dashboard' ? '' : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    return <Navigate to={`/login${next}`} replace />;
  }
  if (!session.user) return <LoadingView />;
  return <>{children}</>;
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
  const refused = user !== undefined && !user.isAdmin;
  const message = pathname.startsWith('/users')
    ? 'Only administrators can open the Users page.'
    : 'Only administrators can open this page.';
  useEffect(() => {
    if (refused) notify({ tone: 'warning', message });
  }, [refused, notify, message]);
  if (refused) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
