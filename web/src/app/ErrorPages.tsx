/**
 * When a page cannot be shown: the not-found page for an unknown address, and the router's
 * error element for anything a page throws while loading or rendering - including a lazy
 * page's code that is gone after a deploy (an old open tab), where Reload is the cure. Both
 * look like the app and always offer a way home. Also the page of a session whose first read
 * the rate limit holds (HeldSessionPage): it says when, instead of a spinner for minutes.
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router-dom';
import { Brand } from '../components/SiteHeader/Brand.tsx';
import { Button } from '../components/ui/Button.tsx';
import { Icon } from '../components/ui/icons.tsx';
import styles from './ErrorPages.module.css';

function ProblemPage({
  code,
  title,
  children,
  actions,
}: {
  code: string;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <main className={styles.problemPage} id="main">
      <div className={styles.problemCard}>
        <Brand />
        <p className={styles.problemCode}>{code}</p>
        <h1 className={styles.problemTitle}>{title}</h1>
        <div className={styles.problemText}>{children}</div>
        <div className={styles.problemActions}>
          {actions}
          <Link to="/" className="btn btn-primary btn-md">
            <Icon name="home" size={18} /> {t('errors.goHome')}
          </Link>
        </div>
      </div>
    </main>
  );
}

export function NotFoundPage(): ReactElement {
  const location = useLocation();
  const { t } = useTranslation();
  return (
    <ProblemPage
      code="404"
      title={t('errors.notFoundTitle')}
      actions={
        <Link to="/dashboard" className="btn btn-secondary btn-md">
          {t('errors.openDashboard')}
        </Link>
      }
    >
      <p>
        {t('errors.notFoundBefore')} <code className="mono">{location.pathname}</code>
        {t('errors.notFoundAfter')}
      </p>
    </ProblemPage>
  );
}

/** A lazy page's module could not be fetched: the tab runs an older build than the server. */
function isStaleBuild(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported/i.test(
    message,
  );
}

export function RouteErrorPage(): ReactElement {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const stale = isStaleBuild(error);
  // The details go to the console for whoever debugs it; the page shows no internals.
  console.error(error);
  return (
    <ProblemPage
      code={stale ? t('errors.updateCode') : t('errors.errorCode')}
      title={stale ? t('errors.staleTitle') : t('errors.errorTitle')}
      actions={
        <Button variant="secondary" onClick={() => window.location.reload()}>
          <Icon name="refresh" size={18} /> {t('errors.reload')}
        </Button>
      }
    >
      <p>{stale ? t('errors.staleText') : t('errors.errorText')}</p>
    </ProblemPage>
  );
}

/**
 * Signed in, but the account could not be loaded (the server or the connection failed, or
 * stayed rate-limited past every retry): the session is kept, and Try again asks once more.
 */
export function HeldSessionPage({ seconds }: { seconds: number }): ReactElement {
  const { t } = useTranslation();
  return (
    <ProblemPage code="429" title={t('guards.heldTitle')}>
      <p>{t('guards.heldText', { seconds })}</p>
    </ProblemPage>
  );
}

export function SessionTroublePage({ message, onRetry }: { message: string; onRetry: () => void }): ReactElement {
  return (
    <ProblemPage
      code="Error"
      title="Your account could not be loaded"
      actions={
        <Button variant="secondary" onClick={onRetry}>
          <Icon name="refresh" size={18} /> Try again
        </Button>
      }
    >
      <p>{message} You are still signed in; your money and history are safe.</p>
    </ProblemPage>
  );
}
