/**
 * A screenshot the browser tests took (under /screenshots); when it is missing, a neutral
 * frame with the same size and accessible name.
 */
import { useState, type ReactElement } from 'react';
import styles from './Landing.module.css';

export function Screenshot({
  src,
  alt,
  className,
}: {
  src: string;
  alt: string;
  className: string | undefined;
}): ReactElement {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <div className={`${className ?? ''} ${styles.shotFallback}`} role="img" aria-label={alt}>
        <span className={styles.shotBar} />
        <span className={`${styles.shotLine} ${styles.w60}`} />
        <span className={styles.shotBlock} />
        <span className={`${styles.shotLine} ${styles.w80}`} />
        <span className={`${styles.shotLine} ${styles.w40}`} />
      </div>
    );
  }
  return (
    <img src={src} alt={alt} className={className} onError={() => setFailed(true)} loading="eager" decoding="async" />
  );
}
