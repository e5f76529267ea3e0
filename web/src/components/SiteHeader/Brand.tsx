/**
 * The wallet's name and ₹ mark, linking home: in the site header, the app shell, the auth
 * screens, the footer and the error pages. `tone` light is for dark backgrounds, `size` small
 * for the phone top bar; `className` adds a caller's placement class.
 */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';

export function Brand({
  tone = 'default',
  size = 'default',
  className,
}: {
  tone?: 'default' | 'light';
  size?: 'default' | 'small';
  className?: string;
}): ReactElement {
  const classes = ['brand', tone === 'light' ? 'brand-light' : '', size === 'small' ? 'brand-sm' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <Link to="/" className={classes}>
      <span className="brand-mark" aria-hidden="true">
        ₹
      </span>{' '}
      Rupee Wallet
    </Link>
  );
}
