/**
 * The wallet's name and ₹ mark, linking home: in the site header, the app shell, the auth
 * screens, the footer and the error pages. `tone` light is for dark backgrounds, `size` small
 * for the phone top bar; `className` adds a caller's placement class (its rules load after
 * Brand.module.css, which the eagerly loaded error pages import, so they win a tie).
 */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import styles from './Brand.module.css';

export function Brand({
  tone = 'default',
  size = 'default',
  className,
}: {
  tone?: 'default' | 'light';
  size?: 'default' | 'small';
  className?: string;
}): ReactElement {
  const classes = [
    styles.brand,
    tone === 'light' ? styles.light : '',
    size === 'small' ? styles.small : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Link to="/" className={classes}>
      <span className={styles.mark} aria-hidden="true">
        ₹
      </span>{' '}
      Rupee Wallet
    </Link>
  );
}
