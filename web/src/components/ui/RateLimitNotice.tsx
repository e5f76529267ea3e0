/**
 * The one calm notice of the server's rate limit: "Too many requests - trying again in 12 s",
 * counting down to the Retry-After that lib/rate-limit.ts holds, gone once it has passed (the
 * waiting reads then go out by themselves). A status, not an error: nobody is signed out.
 * Mounted once at the root, so repeated refusals update it instead of piling up toasts.
 *
 * A page whose read is held says so where the read's result goes (HeldReadNotice): what it
 * already had stays on screen with "showing what was already loaded", and a page with nothing
 * yet says when it will load - never an empty state that claims there is nothing (issue 41).
 */
import { useEffect, useState, useSyncExternalStore, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client.ts';
import { rateLimitDeadline, subscribeRateLimit } from '../../lib/rate-limit.ts';
import { Notice } from './misc.tsx';
import styles from './RateLimitNotice.module.css';

/** Whole seconds left until the noted limit passes, ticking once a second; 0 when not limited. */
export function useRateLimitCountdown(): number {
  const until = useSyncExternalStore(subscribeRateLimit, rateLimitDeadline);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (until <= Date.now()) return undefined;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

export function RateLimitNotice(): ReactElement {
  const seconds = useRateLimitCountdown();
  const { t } = useTranslation();
  return (
    // The status exists only while limited: an empty live region would stay exposed behind an
    // open dialog (radix spares live regions when it hides the page).
    <div className={`rate-limit-notice ${styles.region}`}>
      {seconds > 0 ? (
        <p className={styles.notice} role="status">
          <span className={styles.mark} aria-hidden="true" />
          {t('toasts.rateLimited', { seconds })}
        </p>
      ) : null}
    </div>
  );
}

/** A read's state as react-query gives it: enough to tell whether the rate limit holds it. */
export interface HeldRead {
  isFetching: boolean;
  error: unknown;
}

/**
 * Seconds until a read the rate limit holds goes out again; 0 when it is not held. Held: the
 * limit is noted and the read is waiting to go (apiData waits out Retry-After) or was refused.
 */
export function useHeldSeconds(read: HeldRead): number {
  const seconds = useRateLimitCountdown();
  const refused = read.error instanceof ApiError && read.error.status === 429;
  return seconds > 0 && (read.isFetching || refused) ? seconds : 0;
}

/** The page's own notice of a held read; `hasData`: what was already loaded stays shown. */
export function HeldReadNotice({ seconds, hasData }: { seconds: number; hasData: boolean }): ReactElement | null {
  const { t } = useTranslation();
  if (seconds <= 0) return null;
  return (
    <div className="held-read" data-testid="held-read">
      <Notice tone="warning">{t(hasData ? 'toasts.heldShowingLast' : 'toasts.heldLoading', { seconds })}</Notice>
    </div>
  );
}
