/**
 * The route table of spec section 2, with every page code-split (React.lazy) so the
 * landing route loads only its own code. Each route names its page and its access (public,
 * guest only, signed in, admin); `routeElement` wraps the lazy page in the matching guards.
 * An unknown address shows the not-found page; anything a page throws shows the error page
 * (ErrorPages.tsx).
 */
import { lazy, Suspense, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, useParams } from 'react-router-dom';
import { LoadingView } from '../components/ui/LoadingView.tsx';
import { NotFoundPage, RouteErrorPage } from './ErrorPages.tsx';
import { AdminRoute, GuestRoute, ProtectedRoute } from './guards.tsx';

const LandingPage = lazy(() => import('../features/landing/components/LandingPage.tsx'));
const LoginRoute = lazy(() => import('./routes/LoginRoute.tsx'));
const RegisterPage = lazy(() => import('../features/auth/components/RegisterPage.tsx'));
const PendingVerificationPage = lazy(() => import('../features/auth/components/PendingVerificationPage.tsx'));
const DashboardRoute = lazy(() => import('./routes/DashboardRoute.tsx'));
const TransactionsRoute = lazy(() => import('./routes/TransactionsRoute.tsx'));
const TransactionDetailRoute = lazy(() => import('./routes/TransactionDetailRoute.tsx'));
const RequestsRoute = lazy(() => import('./routes/RequestsRoute.tsx'));
const ReceiveRoute = lazy(() => import('./routes/ReceiveRoute.tsx'));
const UsersRoute = lazy(() => import('./routes/UsersRoute.tsx'));
const AdminAuditRoute = lazy(() => import('./routes/AdminAuditRoute.tsx'));
const AdminLedgerRoute = lazy(() => import('./routes/AdminLedgerRoute.tsx'));
const AdminOperationsRoute = lazy(() => import('./routes/AdminOperationsRoute.tsx'));
const AdminDisputesRoute = lazy(() => import('./routes/AdminDisputesRoute.tsx'));
const DocsPage = lazy(() => import('../features/docs/components/DocsPage.tsx'));
const ArchitecturePage = lazy(() => import('../features/architecture/components/ArchitecturePage.tsx'));
const LogoutRoute = lazy(() => import('./routes/LogoutRoute.tsx'));
const PrivacyPage = lazy(() => import('../features/legal/components/PrivacyPage.tsx'));
const TermsPage = lazy(() => import('../features/legal/components/TermsPage.tsx'));

/** Who may open a route: anyone, only a signed-out guest, a signed-in user, an admin. */
type Access = 'public' | 'guest' | 'user' | 'admin';

interface PageRoute {
  path: string;
  page: ComponentType;
  access: Access;
}

const PAGE_ROUTES: readonly PageRoute[] = [
  { path: '/', page: LandingPage, access: 'public' },
  { path: '/login', page: LoginRoute, access: 'guest' },
  { path: '/register', page: RegisterPage, access: 'guest' },
  { path: '/user-not-verified', page: PendingVerificationPage, access: 'public' },
  { path: '/docs', page: DocsPage, access: 'public' },
  { path: '/architecture', page: ArchitecturePage, access: 'public' },
  { path: '/privacy', page: PrivacyPage, access: 'public' },
  { path: '/terms', page: TermsPage, access: 'public' },
  { path: '/logout', page: LogoutRoute, access: 'public' },
  { path: '/dashboard', page: DashboardRoute, access: 'user' },
  { path: '/transactions', page: TransactionsRoute, access: 'user' },
  { path: '/transactions/:transactionId', page: TransactionDetailRoute, access: 'user' },
  { path: '/requests', page: RequestsRoute, access: 'user' },
  { path: '/receive', page: ReceiveRoute, access: 'user' },
  { path: '/users', page: UsersRoute, access: 'admin' },
  { path: '/admin/audit', page: AdminAuditRoute, access: 'admin' },
  { path: '/admin/ledger', page: AdminLedgerRoute, access: 'admin' },
  { path: '/admin/operations', page: AdminOperationsRoute, access: 'admin' },
  { path: '/admin/disputes', page: AdminDisputesRoute, access: 'admin' },
];

function Page({ children }: { children: ReactNode }): ReactElement {
  return <Suspense fallback={<LoadingView />}>{children}</Suspense>;
}

/** The lazy page inside its loading fallback, inside the guards its access asks for. */
function routeElement({ page: PageComponent, access }: PageRoute): ReactElement {
  const page = (
    <Page>
      {access === 'admin' ? (
        <AdminRoute>
          <PageComponent />
        </AdminRoute>
      ) : (
        <PageComponent />
      )}
    </Page>
  );
  if (access === 'guest') return <GuestRoute>{page}</GuestRoute>;
  if (access === 'user' || access === 'admin') return <ProtectedRoute>{page}</ProtectedRoute>;
  return page;
}

/** /user/:accountNumber (what the payment QR encodes): the pay flow with that recipient. */
function PayDeepLink(): ReactElement {
  const { accountNumber = '' } = useParams();
  return <Navigate to={`/transactions?pay=${encodeURIComponent(accountNumber)}`} replace />;
}

export function createRouter() {
  return createBrowserRouter([
    {
      element: <Outlet />,
      errorElement: <RouteErrorPage />,
      children: [
        ...PAGE_ROUTES.map((route) => ({ path: route.path, element: routeElement(route) })),
        {
          path: '/user/:accountNumber',
          element: (
            <ProtectedRoute>
              <PayDeepLink />
            </ProtectedRoute>
          ),
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
