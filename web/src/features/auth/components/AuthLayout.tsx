/**
 * The frame of the guest screens: brand panel on the left (desktop), form card on the right.
 */
import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router-dom';

export function AuthLayout({
  title,
  subtitle,
  children,
  wide = false,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  wide?: boolean;
}): ReactElement {
  return (
    <div className="auth">
      <aside className="auth-brand">
        <Link to="/" className="brand brand-light">
          <span className="brand-mark" aria-hidden="true">
            ₹
          </span>{' '}
          Rupee Wallet
        </Link>
        <div>
          <p className="auth-brand-title">Banking-grade payments, in your pocket.</p>
          <ul className="auth-brand-list">
            <li>Instant transfers between wallet accounts</li>
            <li>UPI, bank transfer and card deposits</li>
            <li>Scan-to-pay QR codes and money requests</li>
            <li>Every rupee recorded on a double-entry ledger</li>
          </ul>
        </div>
        <p className="auth-brand-foot">Protected by a transaction PIN on every payment.</p>
      </aside>
      <main className="auth-main" id="main">
        <div className={`auth-card${wide ? ' auth-card-wide' : ''}`}>
          <Link to="/" className="brand auth-card-brand">
            <span className="brand-mark" aria-hidden="true">
              ₹
            </span>{' '}
            Rupee Wallet
          </Link>
          <h1 className="auth-title">{title}</h1>
          <p className="auth-subtitle">{subtitle}</p>
          {children}
        </div>
      </main>
    </div>
  );
}
