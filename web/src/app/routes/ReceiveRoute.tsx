/**
 * /receive: the signed-in user's payment QR, large, with their name and account number, to
 * download as a PNG or share (the system share sheet with the PNG where the browser can share
 * files, else the pay link; a download where there is no share sheet). The QR is the
 * dashboard feature's endpoint; this route composes it inside the signed-in layout.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/Button.tsx';
import { Icon } from '../../components/ui/icons.tsx';
import { Card, PageHeader } from '../../components/ui/misc.tsx';
import { useToast } from '../../components/ui/Toaster.tsx';
import { usePaymentQr } from '../../features/dashboard/api/generate-qr.ts';
import { downloadDataUrl, shareQr, type ShareOutcome } from '../../lib/share-qr.ts';
import { AppShell } from '../AppShell.tsx';
import { useUser } from '../session.tsx';
import styles from './ReceiveRoute.module.css';

const SHARE_MESSAGES = {
  'shared-file': 'receive.sharedFile',
  'shared-link': 'receive.sharedLink',
  downloaded: 'receive.downloadedInstead',
  cancelled: null,
} as const satisfies Record<ShareOutcome, string | null>;

export default function ReceiveRoute(): ReactElement {
  const user = useUser();
  const qr = usePaymentQr(user._id);
  const notify = useToast();
  const { t } = useTranslation();
  const name = `${user.firstName} ${user.lastName}`.trim();
  const fileName = `rupee-wallet-qr-${user._id}.png`;
  const payUrl = `${window.location.origin}/user/${encodeURIComponent(user._id)}`;

  function download(): void {
    if (!qr.data) return;
    downloadDataUrl(qr.data, fileName);
    notify({ tone: 'success', message: t('receive.downloaded'), durationMs: 3000 });
  }

  async function share(): Promise<void> {
    if (!qr.data) return;
    const outcome = await shareQr({
      dataUrl: qr.data,
      fileName,
      title: t('receive.shareTitle', { name }),
      text: t('receive.shareText', { name, account: user._id }),
      url: payUrl,
    });
    const key = SHARE_MESSAGES[outcome];
    if (key) notify({ tone: outcome === 'downloaded' ? 'info' : 'success', message: t(key), durationMs: 4000 });
  }

  return (
    <AppShell>
      <div className="page receive-page">
        <PageHeader title={t('receive.title')} subtitle={t('receive.subtitle')} />
        <Card title={t('receive.cardTitle')} className={styles.receiveCard}>
          <div className={styles.receiveQr}>
            {qr.isPending ? <p className="muted">{t('receive.generating')}</p> : null}
            {qr.isError ? <p className="field-error">{t('receive.failed')}</p> : null}
            {qr.data ? <img src={qr.data} alt={t('receive.qrAlt', { name })} width={256} height={256} /> : null}
          </div>
          <dl className={styles.receiveDetails}>
            <div>
              <dt>{t('payment.name')}</dt>
              <dd>{name}</dd>
            </div>
            <div>
              <dt>{t('payment.account')}</dt>
              <dd className="mono">{user._id}</dd>
            </div>
          </dl>
          <p className="muted center">{t('receive.scanHint')}</p>
          <div className={styles.receiveActions}>
            <Button onClick={download} disabled={!qr.data}>
              <Icon name="download" size={18} /> {t('receive.download')}
            </Button>
            <Button variant="secondary" onClick={() => void share()} disabled={!qr.data}>
              <Icon name="share" size={18} /> {t('receive.share')}
            </Button>
          </div>
        </Card>
        <p className="center">
          <Link to="/dashboard">{t('receive.back')}</Link>
        </p>
      </div>
    </AppShell>
  );
}
