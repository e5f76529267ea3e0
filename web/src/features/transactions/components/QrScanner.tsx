/**
 * Scan to pay's scanner: the Camera / Upload image tabs, the camera preview with Start and
 * Stop, the image picker, and what the scan reports (verifying, or why it failed).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import styles from './QrScanner.module.css';
import type { ScanToPay } from './useScanToPay.ts';

function CameraView({ scan }: { scan: ScanToPay }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className={styles.scanner}>
      <div className={styles.frame}>
        <video ref={scan.videoRef} className={styles.video} muted playsInline aria-label={t('scan.cameraPreview')} />
        <span className={styles.corners} aria-hidden="true" />
        {!scan.cameraOn ? (
          <span className={styles.idle}>
            <Icon name="qr" size={48} />
          </span>
        ) : null}
      </div>
      <p className="field-hint">{t('scan.position')}</p>
      {scan.cameraOn ? (
        <Button variant="secondary" onClick={scan.stopCamera}>
          {t('scan.stopCamera')}
        </Button>
      ) : (
        <Button onClick={() => void scan.startCamera()} disabled={scan.verifying}>
          {t('scan.startCamera')}
        </Button>
      )}
    </div>
  );
}

function UploadView({ scan }: { scan: ScanToPay }): ReactElement {
  const { t } = useTranslation();
  return (
    <label className={styles.dropzone}>
      <Icon name="upload" size={32} />
      <span className={styles.dropzoneTitle}>{t('scan.chooseImage')}</span>
      <span className="field-hint">{t('scan.imageTypes')}</span>
      <input
        type="file"
        accept="image/png,image/jpeg,image/jpg,image/*"
        className="sr-only"
        aria-label={t('scan.uploadImage')}
        onChange={(event) => {
          void scan.upload(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
    </label>
  );
}

export function QrScanner({ scan }: { scan: ScanToPay }): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <div className={styles.segmented} role="tablist" aria-label={t('scan.mode')}>
        {(['camera', 'upload'] as const).map((option) => (
          <button
            key={option}
            type="button"
            role="tab"
            aria-selected={scan.mode === option}
            className={scan.mode === option ? styles.active : ''}
            onClick={() => scan.chooseMode(option)}
          >
            <Icon name={option === 'camera' ? 'camera' : 'upload'} size={16} />{' '}
            {option === 'camera' ? t('scan.camera') : t('scan.upload')}
          </button>
        ))}
      </div>
      {scan.mode === 'camera' ? <CameraView scan={scan} /> : <UploadView scan={scan} />}
      {scan.verifying ? (
        <p className="muted" role="status">
          Verifying account {scan.receiver}...
        </p>
      ) : null}
      {scan.scanMessage ? <Notice tone="danger">{scan.scanMessage}</Notice> : null}
    </>
  );
}
