/**
 * The full-screen loading view: 'loading your' and a rotating word (dashboard, requests,
 * transactions) on a 3-second cycle (spec section 2).
 */
import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './LoadingView.module.css';

const WORDS = ['loading.dashboard', 'loading.requests', 'loading.transactions'] as const;
const CYCLE_MS = 3000;

export function LoadingView(): ReactElement {
  const [index, setIndex] = useState(0);
  const { t } = useTranslation();
  useEffect(() => {
    const timer = window.setInterval(
      () => setIndex((current) => (current + 1) % WORDS.length),
      CYCLE_MS / WORDS.length,
    );
    return () => window.clearInterval(timer);
  }, []);
  return (
    <div className={styles.view} role="status" aria-live="polite">
      <span className="spinner spinner-lg" aria-hidden="true" />
      <p className={styles.text}>
        {t('loading.prefix')}{' '}
        <span className={styles.word} key={index}>
          {t(WORDS[index] ?? WORDS[0])}
        </span>
      </p>
    </div>
  );
}
