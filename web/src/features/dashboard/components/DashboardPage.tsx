/**
 * The dashboard (spec section 2): greeting, the balance card (BalanceCard.tsx), quick actions,
 * own payment QR (after Send on a phone's single column; beside them on wide screens), profile fields ('N/A'), charts of the balance over time and money in /
 * out by month (ChartsCard.tsx), and the 3 newest transactions (RecentActivity.tsx).
 */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { UserRecord } from '../../../../../contracts/users.ts';
import { Icon, type IconName } from '../../../components/ui/icons.tsx';
import { Card } from '../../../components/ui/misc.tsx';
import { usePaymentQr } from '../api/generate-qr.ts';
import { BalanceCard } from './BalanceCard.tsx';
import styles from './DashboardPage.module.css';
import { ChartsCard } from './ChartsCard.tsx';
import { RecentActivity } from './RecentActivity.tsx';

const QUICK_ACTIONS: { label: string; to: string; icon: IconName }[] = [
  { label: 'Send Money', to: '/transactions', icon: 'send' },
  { label: 'Request Money', to: '/requests', icon: 'requests' },
  { label: 'Add Money', to: '/transactions', icon: 'plus' },
  { label: 'View History', to: '/transactions', icon: 'history' },
];

function orNA(value: string | null | undefined): string {
  return value && value.trim() ? value : 'N/A';
}

function QrCard({ userId }: { userId: string }): ReactElement {
  const qr = usePaymentQr(userId);
  return (
    <Card title="Payment QR Code" className={styles.qrCard}>
      <div className={`qr-box ${styles.qrBox}`}>
        {qr.isPending ? <p className="muted">Generating QR Code...</p> : null}
        {qr.isError ? <p className="field-error">Failed to generate QR code</p> : null}
        {qr.data ? <img src={qr.data} alt="Your payment QR code" width={180} height={180} /> : null}
      </div>
      <p className="muted center">Scan to make payment</p>
      <p className="center">
        <Link to="/receive">Download or share</Link>
      </p>
    </Card>
  );
}

export function DashboardPage({ user }: { user: UserRecord }): ReactElement {
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
      <header className={styles.greeting}>
        <h1 className="page-title">Hi {user.firstName}, Welcome</h1>
        <p className="muted">Here is your wallet at a glance.</p>
      </header>
      <div className={styles.grid}>
        <BalanceCard accountNumber={user._id} balance={user.balance} />
        <Card title="Quick Actions" className="actions-card">
          <div className={styles.quickActions}>
            {QUICK_ACTIONS.map((action) => (
              <Link key={action.label} to={action.to} className={styles.quickAction}>
                <span className={styles.quickIcon}>
                  <Icon name={action.icon} />
                </span>
                <span>{action.label}</span>
              </Link>
            ))}
          </div>
        </Card>
        <QrCard userId={user._id} />
        <Card title="Profile" className="profile-card">
          <dl className={`profile-list ${styles.profileList}`}>
            {profile.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <ChartsCard />
        <RecentActivity userId={user._id} />
      </div>
    </div>
  );
}
