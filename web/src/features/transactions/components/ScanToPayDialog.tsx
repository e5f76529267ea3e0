/**
 * Scan to pay (spec sections 2, 4, 5, 8): camera mode (rear camera, one frame a second
 * decoded with jsqr, retry 2 s after a failed verification) or upload mode (images up to
 * 10 MB); the account-URL rule of contracts/qr.ts; then the verified-recipient card and the
 * pay fields; Pay Now shows "Pay ₹X to <verified name>" with Back / Confirm, then the PIN.
 * Closing the dialog stops the camera.
 */
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { accountFromQrText, INVALID_QR_MESSAGE } from '../../../../../contracts/qr.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { VerifiedPanel } from '../../../components/ui/VerifiedPanel.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import { decodeQrFrom, loadImage } from '../../../lib/qr-decode.ts';
import { useRecipient } from '../../../lib/use-recipient.ts';
import { focusPayAmount, PayConfirmation, PayFields } from './PayFields.tsx';
import { usePayment } from './usePayment.ts';

export const FRAME_INTERVAL_MS = 1000;
export const RETRY_AFTER_MS = 2000;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

type Mode = 'camera' | 'upload';

export interface ScanToPayDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  balance: number;
}

export function ScanToPayDialog({ open, onOpenChange, userId, balance }: ScanToPayDialogProps): ReactElement {
  const [mode, setMode] = useState<Mode>('camera');
  const [cameraOn, setCameraOn] = useState(false);
  const [scanMessage, setScanMessage] = useState<string | null>(null);
  const [receiver, setReceiver] = useState('');
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<number | null>(null);
  const retryRef = useRef<number | null>(null);
  const busyRef = useRef(false);
  const recipient = useRecipient();
  const notify = useToast();
  const payment = usePayment({ userId, balance, onPaid: () => close(false) });

  const stopCamera = useCallback(() => {
    if (timerRef.current !== null) window.clearInterval(timerRef.current);
    timerRef.current = null;
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    setCameraOn(false);
  }, []);

  /** A decoded text: extract the account number, verify it, report. Returns whether verified. */
  const handleText = useCallback(
    async (text: string | null): Promise<boolean> => {
      const account = text ? accountFromQrText(text) : null;
      if (!account) {
        setScanMessage(INVALID_QR_MESSAGE);
        return false;
      }
      setScanMessage(null);
      setReceiver(account);
      const outcome = await recipient.verify(account);
      if (outcome.ok) {
        notify({ tone: 'success', message: 'QR Code scanned and account verified successfully!' });
        focusPayAmount();
        return true;
      }
      setScanMessage(outcome.message);
      notify({ tone: 'error', message: outcome.message });
      return false;
    },
    [recipient, notify],
  );

  const startCamera = useCallback(async () => {
    setScanMessage(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: 'environment' } },
        audio: false,
      });
      streamRef.current = stream;
      if (videoRef.current) {
        videoRef.current.srcObject = stream;
        await videoRef.current.play().catch(() => undefined);
      }
      setCameraOn(true);
      timerRef.current = window.setInterval(() => {
        const video = videoRef.current;
        if (!video || busyRef.current) return;
        busyRef.current = true;
        void decodeQrFrom(video)
          .then(async (text) => {
            if (!text) return;
            stopCamera();
            const verified = await handleText(text);
            if (!verified) retryRef.current = window.setTimeout(() => void startCameraRef.current?.(), RETRY_AFTER_MS);
          })
          .finally(() => {
            busyRef.current = false;
          });
      }, FRAME_INTERVAL_MS);
    } catch (error) {
      console.warn('Unable to access camera. Please check permissions.', error);
      setScanMessage('Unable to access camera. Please check permissions.');
      setCameraOn(false);
    }
  }, [handleText, stopCamera]);
  const startCameraRef = useRef<(() => Promise<void>) | null>(null);
  startCameraRef.current = startCamera;

  async function upload(file: File | undefined): Promise<void> {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setScanMessage('Failed to load the image. Please select a valid image file.');
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setScanMessage('The image is larger than 10MB. Please choose a smaller file.');
      return;
    }
    let image: HTMLImageElement;
    try {
      image = await loadImage(file);
    } catch {
      setScanMessage('Failed to load the image. Please select a valid image file.');
      return;
    }
    try {
      await handleText(await decodeQrFrom(image));
    } catch {
      setScanMessage('Failed to process the uploaded image. Please try again.');
    }
  }

  function scanAgain(): void {
    recipient.clear();
    setReceiver('');
    payment.reset();
    setScanMessage(null);
  }

  function close(next: boolean): void {
    if (!next) {
      stopCamera();
      if (retryRef.current !== null) window.clearTimeout(retryRef.current);
      scanAgain();
      setMode('camera');
    }
    onOpenChange(next);
  }

  useEffect(() => () => stopCamera(), [stopCamera]);

  const account = recipient.status === 'verified' ? recipient.account : null;
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Scan to Pay"
      description="Scan a wallet payment QR code, then confirm the payment."
      busy={payment.paying}
      size="lg"
    >
      {payment.stage !== 'details' && account ? (
        <PayConfirmation payment={payment} payee={{ ...account, bankName: account.bankName ?? 'Default Bank' }} />
      ) : (
        <div className="form-stack">
          {!account ? (
            <>
              <div className="segmented" role="tablist" aria-label="Scan mode">
                {(['camera', 'upload'] as const).map((option) => (
                  <button
                    key={option}
                    type="button"
                    role="tab"
                    aria-selected={mode === option}
                    className={mode === option ? 'active' : ''}
                    onClick={() => {
                      stopCamera();
                      setMode(option);
                      setScanMessage(null);
                    }}
                  >
                    <Icon name={option === 'camera' ? 'camera' : 'upload'} size={16} />{' '}
                    {option === 'camera' ? 'Camera' : 'Upload image'}
                  </button>
                ))}
              </div>
              {mode === 'camera' ? (
                <div className="scanner">
                  <div className="scanner-frame">
                    <video ref={videoRef} className="scanner-video" muted playsInline aria-label="Camera preview" />
                    <span className="scanner-corners" aria-hidden="true" />
                    {!cameraOn ? (
                      <span className="scanner-idle">
                        <Icon name="qr" size={48} />
                      </span>
                    ) : null}
                  </div>
                  <p className="field-hint">Position QR code within the frame</p>
                  {cameraOn ? (
                    <Button variant="secondary" onClick={stopCamera}>
                      Stop Camera
                    </Button>
                  ) : (
                    <Button onClick={() => void startCamera()} disabled={recipient.status === 'verifying'}>
                      Start Camera
                    </Button>
                  )}
                </div>
              ) : (
                <label className="dropzone">
                  <Icon name="upload" size={32} />
                  <span className="dropzone-title">Choose a QR code image</span>
                  <span className="field-hint">PNG, JPG, JPEG up to 10MB</span>
                  <input
                    type="file"
                    accept="image/png,image/jpeg,image/jpg,image/*"
                    className="sr-only"
                    aria-label="Upload QR code image"
                    onChange={(event) => {
                      void upload(event.target.files?.[0]);
                      event.target.value = '';
                    }}
                  />
                </label>
              )}
              {recipient.status === 'verifying' ? (
                <p className="muted" role="status">
                  Verifying account {receiver}...
                </p>
              ) : null}
              {scanMessage ? <Notice tone="danger">{scanMessage}</Notice> : null}
            </>
          ) : (
            <VerifiedPanel
              title="Recipient verified"
              name={account.name}
              accountNumber={account.accountNumber}
              bankName={account.bankName ?? 'Default Bank'}
              action={
                <Button variant="link" onClick={scanAgain}>
                  Scan different QR code
                </Button>
              }
            />
          )}
          <form
            onSubmit={(event) => {
              event.preventDefault();
              payment.review(receiver, recipient.status === 'verified');
            }}
            noValidate
            className="form-stack"
            aria-label="Pay"
          >
            <PayFields values={payment.values} errors={payment.errors} onChange={payment.set} />
            <Notice tone="info" title="Important Information">
              <ul className="info-list">
                <li>Transfers are instant and cannot be reversed.</li>
                <li>Verify the recipient's name before paying.</li>
                <li>Your transaction PIN is required.</li>
                <li>Ensure you have sufficient balance.</li>
              </ul>
            </Notice>
            <div className="modal-actions">
              <Button variant="secondary" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={!account || payment.paying}>
                Pay Now
              </Button>
            </div>
          </form>
        </div>
      )}
    </Modal>
  );
}
