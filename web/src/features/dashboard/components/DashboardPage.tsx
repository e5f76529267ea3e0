/**
 * The dashboard (spec section 2): greeting, the balance card (BalanceCard.tsx), quick actions,
 * own payment QR (after Send on a phone's single column; beside them on wide screens), profile fields ('N/A'), charts of the balance over time and money in /
 * out by month (ChartsCard.tsx), and the 3 newest transactions (RecentActivity.tsx). The
 * profile shows the user's handle, or a form to choose it (HandleForm.tsx); recent payees open
 * the send dialog with one of them (issue 43).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { UserRecord } from '../../../../../contracts/users.ts';
import { Icon, type IconName } from '../../../components/ui/icons.tsx';
import { Card } from '../../../components/ui/misc.tsx';
import { RecentPayeeLabel, RecentPayees } from '../../../components/ui/RecentPayees.tsx';
import { useRecentPayees } from '../../../lib/api/recent-payees.ts';
import { usePaymentQr } from '../api/generate-qr.ts';
import { BalanceCard } from './BalanceCard.tsx';
import styles from './DashboardPage.module.css';
import { ChartsCard } from './ChartsCard.tsx';
import { HandleForm } from './HandleForm.tsx';
import { RecentActivity } from './RecentActivity.tsx';
import { idTypeLabel } from '../../../lib/id-type.ts';

const QUICK_ACTIONS = [
  { label: 'dashboard.sendMoney', to: '/transactions', icon: 'send' },
  { label: 'dashboard.requestMoney', to: '/requests', icon: 'requests' },
  // Straight to the deposit dialog: the spec's plain /transactions left the user to find DEPOSIT.
  { label: 'dashboard.addMoney', to: '/transactions?open=deposit', icon: 'plus' },
  { label: 'dashboard.viewHistory', to: '/transactions', icon: 'history' },
] as const satisfies readonly { label: string; to: string; icon: IconName }[];

function present(value: string | null | undefined): string | null {
  return value && value.trim() ? value : null;
}

function QrCard({ userId }: { userId: string }): ReactElement {
  const { t } = useTranslation();
  const qr = usePaymentQr(userId);
  return (
    <Card title={t('dashboard.qrTitle')} className={styles.qrCard}>
      <div className={`qr-box ${styles.qrBox}`}>
        {qr.isPending ? <p className="muted">{t('receive.generating')}</p> : null}
        {qr.isError ? <p className="field-error">{t('receive.failed')}</p> : null}
        {qr.data ? <img src={qr.data} alt={t('receive.cardTitle')} width={180} height={180} /> : null}
      </div>
      <p className="muted center">{t('dashboard.scanToPay')}</p>
      <p className="center">
        <Link to="/receive">{t('dashboard.downloadOrShare')}</Link>
      </p>
    </Card>
  );
}

/** The people the user paid last: one tap opens the send dialog with that payee verified. */
function RecentPayeesCard(): ReactElement {
  const { t } = useTranslation();
  const payees = useRecentPayees();
  return (
    <Card title={t('payees.recent')}>
      <RecentPayees
        payees={payees.data}
        emptyText={payees.isSuccess ? t('payees.none') : undefined}
        action={(payee, className) => (
          <Link to={`/transactions?pay=${encodeURIComponent(payee.accountNumber)}`} className={className}>
            <RecentPayeeLabel payee={payee} />
          </Link>
        )}
      />
    </Card>
  );
}

export function DashboardPage({ user }: { user: UserRecord }): ReactElement {
  const { t } = useTranslation();
  const notAvailable = t('dashboard.notAvailable');
  const profile: [string, string][] = [
    [t('dashboard.firstName'), present(user.firstName) ?? notAvailable],
    [t('dashboard.lastName'), present(user.lastName) ?? notAvailable],
    [t('dashboard.email'), present(user.email) ?? notAvailable],
    [t('dashboard.contactNo'), present(user.contactNo) ?? notAvailable],
    [t('dashboard.identity'), present(user.identification ? idTypeLabel(user.identification) : '') ?? notAvailable],
    [t('dashboard.idNumber'), present(user.identificationNumber) ?? notAvailable],
    [t('payees.yourHandle'), present(user.handle) ?? t('payees.notChosen')],
  ];
  return (
    <div className="page">
      <header className={styles.greeting}>
        <h1 className="page-title">{t('dashboard.greeting', { name: user.firstName })}</h1>
        <p className="muted">{t('dashboard.glance')}</p>
      </header>
      <div className={styles.grid}>
        <BalanceCard accountNumber={user._id} balance={user.balance} />
        <Card title={t('dashboard.quickActions')} className="actions-card">
          <div className={styles.quickActions}>
            {QUICK_ACTIONS.map((action) => (
              <Link key={action.label} to={action.to} className={styles.quickAction}>
                <span className={styles.quickIcon}>
                  <Icon name={action.icon} />
                </span>
                <span>{t(action.label)}</span>
              </Link>
            ))}
          </div>
        </Card>
        <QrCard userId={user._id} />
        <Card title={t('dashboard.profile')} className="profile-card">
          <dl className={`profile-list ${styles.profileList}`}>
            {profile.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {user.handle ? null : <HandleForm />}
        </Card>
        <RecentPayeesCard />
        <ChartsCard />
        <RecentActivity userId={user._id} />
      </div>
    </div>
  );
}
