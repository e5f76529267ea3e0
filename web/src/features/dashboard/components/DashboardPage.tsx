/**
 * The dashboard (spec section 2): greeting, account number with copy, balance (whole
 * rupees, en-IN, hide/show), profile fields ('N/A'), own payment QR, quick actions, and
 * the 3 newest transactions; and charts of the balance over time and money in / out by month
 * (issue 18), whose recharts code loads in a chunk of its own (React.lazy) once the data is here.
 */
import { lazy, Suspense, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { UserRecord } from '../../../../../contracts/users.ts';
import { Icon, type IconName } from '../../../components/ui/icons.tsx';
import { Card, EmptyState } from '../../../components/ui/misc.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { formatDate, formatRupees } from '../../../lib/format.ts';
import { usePaymentQr } from '../api/generate-qr.ts';
import { chartPeriod, CHART_MONTHS, useStatementCharts } from '../api/get-statement-charts.ts';
import { useRecentTransactions } from '../api/get-recent-transactions.ts';

const QUICK_ACTIONS: { label: string; to: string; icon: IconName }[] = [
  { label: 'Send Money', to: '/transactions', icon: 'send' },
  { label: 'Request Money', to: '/requests', icon: 'requests' },
  { label: 'Add Money', to: '/transactions', icon: 'plus' },
  { label: 'View History', to: '/transactions', icon: 'history' },
];

import './dashboard-page.css';

const DashboardCharts = lazy(() => import('./DashboardCharts.tsx'));

function ChartsCard(): ReactElement {
  const [period] = useState(() => chartPeriod());
  const charts = useStatementCharts(period);
  return (
    <Card title="Your money" className="charts-card">
      <p className="muted small">Last {CHART_MONTHS} months, India Standard Time days.</p>
      {charts.isPending ? <p className="muted">Loading charts...</p> : null}
      {charts.isError ? <p className="field-error">{charts.error.message}</p> : null}
      {charts.data ? (
        <Suspense fallback={<p className="muted">Loading charts...</p>}>
          <DashboardCharts data={charts.data} />
        </Suspense>
      ) : null}
    </Card>
  );
}

function orNA(value: string | null | undefined): string {
  return value && value.trim() ? value : 'N/A';
}

export function DashboardPage({ user }: { user: UserRecord }): ReactElement {
  const [hidden, setHidden] = useState(false);
  const notify = useToast();
  const qr = usePaymentQr(user._id);
  const recent = useRecentTransactions();

  async function copyAccount(): Promise<void> {
    try {
      await navigator.clipboard.writeText(user._id);
      notify({ tone: 'success', message: 'Account number copied to clipboard!', durationMs: 3000 });
    } catch {
      notify({ tone: 'error', message: 'Could not copy. Please copy the account number manually.' });
    }
  }

  const profile: [string, string][] = [
    ['First Name', orNA(user.firstName)],
    ['Last Name', orNA(user.lastName)],
    ['Email', orNA(user.email)],
    ['Contact No.', orNA(user.contactNo)],
    ['Identity', orNA(user.identification)],
    ['Id Number', orNA(user.identificationNumber)],
  ];
  return (
    <div className="page">
      <header className="greeting">
        <h1 className="page-title">Hi {user.firstName}, Welcome</h1>
        <p className="muted">Here is your wallet at a glance.</p>
      </header>
      <div className="dashboard-grid">
        <section className="balance-card" aria-label="Balance">
          <div className="row-between">
            <p className="balance-label">Available balance</p>
            <button
              type="button"
              className="icon-button icon-button-light"
              onClick={() => setHidden((value) => !value)}
              aria-label={hidden ? 'Show balance' : 'Hide balance'}
              aria-pressed={hidden}
            >
              <Icon name={hidden ? 'eye' : 'eyeOff'} />
            </button>
          </div>
          <p className="balance-value" data-testid="balance">
            {hidden ? '****' : formatRupees(Math.round(user.balance), { whole: true })}
          </p>
          <div className="account-row">
            <div>
              <p className="balance-label">Account number</p>
              <p className="mono account-number">{user._id}</p>
            </div>
            <button
              type="button"
              className="btn btn-light btn-sm"
              onClick={() => void copyAccount()}
              aria-label="Copy account number"
            >
              <Icon name="copy" size={16} /> Copy
            </button>
          </div>
        </section>
        <Card title="Payment QR Code" className="qr-card">
          <div className="qr-box">
            {qr.isPending ? <p className="muted">Generating QR Code...</p> : null}
            {qr.isError ? <p className="field-error">Failed to generate QR code</p> : null}
            {qr.data ? <img src={qr.data} alt="Your payment QR code" width={180} height={180} /> : null}
          </div>
          <p className="muted center">Scan to make payment</p>
          <p className="center">
            <Link to="/receive">Download or share</Link>
          </p>
        </Card>
        <Card title="Quick Actions" className="actions-card">
          <div className="quick-actions">
            {QUICK_ACTIONS.map((action) => (
              <Link key={action.label} to={action.to} className="quick-action">
                <span className="quick-icon">
                  <Icon name={action.icon} />
                </span>
                <span>{action.label}</span>
              </Link>
            ))}
          </div>
        </Card>
        <Card title="Profile" className="profile-card">
          <dl className="profile-list">
            {profile.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <ChartsCard />
        <Card
          title="Recent Activity"
          actions={
            <Link to="/transactions" className="link">
              View All
            </Link>
          }
          className="recent-card"
        >
          {recent.isError ? <p className="field-error">Failed to fetch transactions</p> : null}
          {recent.data && recent.data.length === 0 ? (
            <EmptyState title="No recent transactions" icon="history" />
          ) : null}
          <ul className="recent-list">
            {(recent.data ?? []).map((transaction) => {
              const type =
                transaction.sender === transaction.receiver
                  ? 'Deposit'
                  : transaction.sender === user._id
                    ? 'Debit'
                    : 'Credit';
              return (
                <li key={transaction._id} className="recent-item">
                  <span className={`recent-icon recent-${type.toLowerCase()}`} aria-hidden="true">
                    <Icon name={type === 'Debit' ? 'send' : 'download'} size={18} />
                  </span>
                  <div className="recent-main">
                    <p className="recent-title">
                      {type === 'Deposit'
                        ? 'Deposit'
                        : (transaction.counterpartyName ??
                          (type === 'Debit' ? transaction.receiver : transaction.sender))}
                    </p>
                    <p className="muted small">
                      {transaction.reference} · {formatDate(transaction.createdAt)}
                    </p>
                  </div>
                  <span className={`amount amount-${type.toLowerCase()}`}>
                    {type === 'Debit' ? '−' : '+'}
                    {formatRupees(transaction.amount)}
                  </span>
                </li>
              );
            })}
          </ul>
        </Card>
      </div>
    </div>
  );
}
