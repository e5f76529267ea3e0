/**
 * The route table of spec section 2, with every page code-split (React.lazy) so the
 * landing route loads only its own code. Guards wrap the lazy pages. An unknown address
 * shows the not-found page; anything a page throws shows the error page (ErrorPages.tsx).
 */
import { lazy, Suspense, type ReactElement, type ReactNode } from 'react';
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
const RequestsRoute = lazy(() => import('./routes/RequestsRoute.tsx'));
const ReceiveRoute = lazy(() => import('./routes/ReceiveRoute.tsx'));
const UsersRoute = lazy(() => import('./routes/UsersRoute.tsx'));
const AdminAuditRoute = lazy(() => import('./routes/AdminAuditRoute.tsx'));
const AdminLedgerRoute = lazy(() => import('./routes/AdminLedgerRoute.tsx'));
const AdminOperationsRoute = lazy(() => import('./routes/AdminOperationsRoute.tsx'));
const DocsPage = lazy(() => import('../features/docs/components/DocsPage.tsx'));
const ArchitecturePage = lazy(() => import('../features/architecture/components/ArchitecturePage.tsx'));
const LogoutRoute = lazy(() => import('./routes/LogoutRoute.tsx'));

function Page({ children }: { children: ReactNode }): ReactElement {
  return <Suspense fallback={<LoadingView />}>{children}</Suspense>;
}

/** /user/:accountNumber (what the payment QR encodes): the pay flow with that recipient. */
function PayDeepLink(): ReactElement {
  const { accountNumber = '' } = useParams();
  return <Navigate to={`/transactions?pay=${encodeURIComponent(accountNumber)}`} replace />;
}

function Protected({ children, admin = false }: { children: ReactNode; admin?: boolean }): ReactElement {
  return (
    <ProtectedRoute>
      <Page>{admin ? <AdminRoute>{children}</AdminRoute> : children}</Page>
    </ProtectedRoute>
  );
}

export function createRouter() {
  return createBrowserRouter([
    {
      element: <Outlet />,
      errorElement: <RouteErrorPage />,
      children: [
        {
          path: '/',
          element: (
            <Page>
              <LandingPage />
            </Page>
          ),
        },
        {
          path: '/login',
          element: (
            <GuestRoute>
              <Page>
                <LoginRoute />
              </Page>
            </GuestRoute>
          ),
        },
        {
          path: '/register',
          element: (
            <GuestRoute>
              <Page>
                <RegisterPage />
              </Page>
            </GuestRoute>
          ),
        },
        {
          path: '/user-not-verified',
          element: (
            <Page>
              <PendingVerificationPage />
            </Page>
          ),
        },
        {
          path: '/docs',
          element: (
            <Page>
              <DocsPage />
            </Page>
          ),
        },
        {
          path: '/architecture',
          element: (
            <Page>
              <ArchitecturePage />
            </Page>
          ),
        },
        {
          path: '/logout',
          element: (
            <Page>
              <LogoutRoute />
            </Page>
          ),
        },
        {
          path: '/dashboard',
          element: (
            <Protected>
              <DashboardRoute />
            </Protected>
          ),
        },
        {
          path: '/transactions',
          element: (
            <Protected>
              <TransactionsRoute />
            </Protected>
          ),
        },
        {
          path: '/requests',
          element: (
            <Protected>
              <RequestsRoute />
            </Protected>
          ),
        },
        {
          path: '/receive',
          element: (
            <Protected>
              <ReceiveRoute />
            </Protected>
          ),
        },
        {
          path: '/users',
          element: (
            <Protected admin>
              <UsersRoute />
            </Protected>
          ),
        },
        {
          path: '/admin/audit',
          element: (
            <Protected admin>
              <AdminAuditRoute />
            </Protected>
          ),
        },
        {
          path: '/admin/ledger',
          element: (
            <Protected admin>
              <AdminLedgerRoute />
            </Protected>
          ),
        },
        {
          path: '/admin/operations',
          element: (
            <Protected admin>
              <AdminOperationsRoute />
            </Protected>
          ),
        },
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
