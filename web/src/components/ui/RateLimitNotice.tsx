/**
 * The one calm notice of the server's rate limit: "Too many requests - trying again in 12 s",
 * counting down to the Retry-After that lib/rate-limit.ts holds, gone once it has passed (the
 * waiting reads then go out by themselves). A status, not an error: nobody is signed out.
 * Mounted once at the root, so repeated refusals update it instead of piling up toasts.
 */
import { useEffect, useState, useSyncExternalStore, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { rateLimitDeadline, subscribeRateLimit } from '../../lib/rate-limit.ts';
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
