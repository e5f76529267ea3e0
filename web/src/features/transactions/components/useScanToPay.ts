/**
 * Scan to pay's state (spec sections 4, 5, 8): the scan mode, the camera (rear camera, one
 * frame a second decoded with jsqr, retry 2 s after a failed verification) or an uploaded
 * image (up to 10 MB), the account-URL rule of contracts/qr.ts, the recipient's
 * verification with its toasts, and the payment (usePayment). Closing stops the camera.
 * The view is ScanToPayDialog.tsx.
 */
import i18next from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { accountFromQrText, INVALID_QR_MESSAGE } from '../../../../../contracts/qr.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { decodeQrFrom, loadImage } from '../../../lib/qr-decode.ts';
import { useRecipient } from '../../../lib/use-recipient.ts';
import { focusPayAmount } from './PayFields.tsx';
import { usePayment } from './usePayment.ts';

export const FRAME_INTERVAL_MS = 1000;
export const RETRY_AFTER_MS = 2000;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export type ScanMode = 'camera' | 'upload';

export function useScanToPay(options: { userId: string; balance: number; onOpenChange: (open: boolean) => void }) {
  const [mode, setMode] = useState<ScanMode>('camera');
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
  const payment = usePayment({ userId: options.userId, balance: options.balance, onPaid: () => close(false) });

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
        notify({ tone: 'success', message: i18next.t('scan.verified') });
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
      setScanMessage(i18next.t('scan.noCamera'));
      setCameraOn(false);
    }
  }, [handleText, stopCamera]);
  const startCameraRef = useRef<(() => Promise<void>) | null>(null);
  startCameraRef.current = startCamera;

  async function upload(file: File | undefined): Promise<void> {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setScanMessage(i18next.t('scan.badImage'));
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setScanMessage(i18next.t('scan.tooLarge'));
      return;
    }
    let image: HTMLImageElement;
    try {
      image = await loadImage(file);
    } catch {
      setScanMessage(i18next.t('scan.badImage'));
      return;
    }
    try {
      await handleText(await decodeQrFrom(image));
    } catch {
      setScanMessage(i18next.t('scan.processFailed'));
    }
  }

  function chooseMode(next: ScanMode): void {
    stopCamera();
    setMode(next);
    setScanMessage(null);
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
    options.onOpenChange(next);
  }

  useEffect(() => () => stopCamera(), [stopCamera]);

  return {
    mode,
    chooseMode,
    cameraOn,
    startCamera,
    stopCamera,
    videoRef,
    upload,
    scanMessage,
    receiver,
    verifying: recipient.status === 'verifying',
    account: recipient.status === 'verified' ? recipient.account : null,
    scanAgain,
    close,
    payment,
  };
}

export type ScanToPay = ReturnType<typeof useScanToPay>;
