/**
 * /receive: the signed-in user's payment QR, large, with their name and account number, to
 * download as a PNG or share (the system share sheet with the PNG where the browser can share
 * files, else the pay link; a download where there is no share sheet). The QR is the
 * dashboard feature's endpoint; this route composes it inside the signed-in layout.
 */
import type { ReactElement } from 'react';
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

const SHARE_MESSAGES: Record<ShareOutcome, string | null> = {
  'shared-file': 'QR code shared',
  'shared-link': 'Payment link shared',
  downloaded: 'Sharing is not available here: the QR code was downloaded instead',
  cancelled: null,
};

export default function ReceiveRoute(): ReactElement {
  const user = useUser();
  const qr = usePaymentQr(user._id);
  const notify = useToast();
  const name = `${user.firstName} ${user.lastName}`.trim();
  const fileName = `rupee-wallet-qr-${user._id}.png`;
  const payUrl = `${window.location.origin}/user/${encodeURIComponent(user._id)}`;

  function download(): void {
    if (!qr.data) return;
    downloadDataUrl(qr.data, fileName);
    notify({ tone: 'success', message: 'QR code downloaded', durationMs: 3000 });
  }

  async function share(): Promise<void> {
    if (!qr.data) return;
    const outcome = await shareQr({
      dataUrl: qr.data,
      fileName,
      title: `Pay ${name}`,
      text: `Pay ${name} on Rupee Wallet (account ${user._id})`,
      url: payUrl,
    });
    const message = SHARE_MESSAGES[outcome];
    if (message) notify({ tone: outcome === 'downloaded' ? 'info' : 'success', message, durationMs: 4000 });
  }

  return (
    <AppShell>
      <div className="page receive-page">
        <PageHeader title="RECEIVE MONEY" subtitle="Show, download or share your payment QR code" />
        <Card title="Your payment QR code" className={styles.receiveCard}>
          <div className={styles.receiveQr}>
            {qr.isPending ? <p className="muted">Generating QR Code...</p> : null}
            {qr.isError ? <p className="field-error">Failed to generate QR code</p> : null}
            {qr.data ? <img src={qr.data} alt={`Payment QR code of ${name}`} width={256} height={256} /> : null}
          </div>
          <dl className={styles.receiveDetails}>
            <div>
              <dt>Name</dt>
              <dd>{name}</dd>
            </div>
            <div>
              <dt>Account</dt>
              <dd className="mono">{user._id}</dd>
            </div>
          </dl>
          <p className="muted center">Anyone with the wallet can scan it to pay you.</p>
          <div className={styles.receiveActions}>
            <Button onClick={download} disabled={!qr.data}>
              <Icon name="download" size={18} /> Download PNG
            </Button>
            <Button variant="secondary" onClick={() => void share()} disabled={!qr.data}>
              <Icon name="share" size={18} /> Share
            </Button>
          </div>
        </Card>
        <p className="center">
          <Link to="/dashboard">Back to dashboard</Link>
        </p>
      </div>
    </AppShell>
  );
}
