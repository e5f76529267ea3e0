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

/**
 * The rear camera, one frame a second decoded until a code is read; `onText` says whether
 * it named a payee that verified, and when not the camera starts again after RETRY_AFTER_MS.
 */
function useQrCamera(onText: (text: string) => Promise<boolean>, onProblem: (message: string | null) => void) {
  const [cameraOn, setCameraOn] = useState(false);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<number | null>(null);
  const retryRef = useRef<number | null>(null);
  const busyRef = useRef(false);

  const stopCamera = useCallback(() => {
    if (timerRef.current !== null) window.clearInterval(timerRef.current);
    timerRef.current = null;
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    setCameraOn(false);
  }, []);

  const startCamera = useCallback(async () => {
    onProblem(null);
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
            const verified = await onText(text);
            if (!verified) retryRef.current = window.setTimeout(() => void startCameraRef.current?.(), RETRY_AFTER_MS);
          })
          .finally(() => {
            busyRef.current = false;
          });
      }, FRAME_INTERVAL_MS);
    } catch (error) {
      console.warn('Unable to access camera. Please check permissions.', error);
      onProblem(i18next.t('scan.noCamera'));
      setCameraOn(false);
    }
  }, [onText, onProblem, stopCamera]);
  const startCameraRef = useRef<(() => Promise<void>) | null>(null);
  startCameraRef.current = startCamera;

  /** Stops the camera and any restart still to come. */
  const stopAll = useCallback(() => {
    stopCamera();
    if (retryRef.current !== null) window.clearTimeout(retryRef.current);
  }, [stopCamera]);

  useEffect(() => () => stopCamera(), [stopCamera]);

  return { cameraOn, videoRef, startCamera, stopCamera, stopAll };
}

/** An uploaded image's QR text (null when it holds none), or why it cannot be read. */
async function uploadedQrText(file: File): Promise<{ text: string | null } | { problem: string }> {
  if (!file.type.startsWith('image/')) return { problem: i18next.t('scan.badImage') };
  if (file.size > MAX_UPLOAD_BYTES) return { problem: i18next.t('scan.tooLarge') };
  let image: HTMLImageElement;
  try {
    image = await loadImage(file);
  } catch {
    return { problem: i18next.t('scan.badImage') };
  }
  try {
    return { text: await decodeQrFrom(image) };
  } catch {
    return { problem: i18next.t('scan.processFailed') };
  }
}

/** The payee a scanned code names: its account read from the code and verified, and the scan's message. */
function useScannedPayee() {
  const [scanMessage, setScanMessage] = useState<string | null>(null);
  const [receiver, setReceiver] = useState('');
  const recipient = useRecipient();
  const notify = useToast();

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

  function clear(): void {
    recipient.clear();
    setReceiver('');
    setScanMessage(null);
  }

  return { scanMessage, setScanMessage, receiver, recipient, handleText, clear };
}

export function useScanToPay(options: { userId: string; balance: number; onOpenChange: (open: boolean) => void }) {
  const [mode, setMode] = useState<ScanMode>('camera');
  const scanned = useScannedPayee();
  const { setScanMessage, handleText, recipient } = scanned;
  const payment = usePayment({ userId: options.userId, balance: options.balance, onPaid: () => close(false) });
  const camera = useQrCamera(handleText, setScanMessage);

  async function upload(file: File | undefined): Promise<void> {
    if (!file) return;
    const read = await uploadedQrText(file);
    if ('problem' in read) return setScanMessage(read.problem);
    try {
      await handleText(read.text);
    } catch {
      setScanMessage(i18next.t('scan.processFailed'));
    }
  }

  function chooseMode(next: ScanMode): void {
    camera.stopCamera();
    setMode(next);
    setScanMessage(null);
  }

  function scanAgain(): void {
    scanned.clear();
    payment.reset();
  }

  function close(next: boolean): void {
    if (!next) {
      camera.stopAll();
      scanAgain();
      setMode('camera');
    }
    options.onOpenChange(next);
  }

  return {
    mode,
    chooseMode,
    cameraOn: camera.cameraOn,
    startCamera: camera.startCamera,
    stopCamera: camera.stopCamera,
    videoRef: camera.videoRef,
    upload,
    scanMessage: scanned.scanMessage,
    receiver: scanned.receiver,
    verifying: recipient.status === 'verifying',
    account: recipient.status === 'verified' ? recipient.account : null,
    scanAgain,
    close,
    payment,
  };
}

export type ScanToPay = ReturnType<typeof useScanToPay>;
