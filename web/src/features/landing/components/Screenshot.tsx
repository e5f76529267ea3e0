/**
 * A screenshot the browser tests took (under /screenshots); when it is missing, a neutral
 * frame with the same size and accessible name.
 */
import { useState, type ReactElement } from 'react';

export function Screenshot({ src, alt, className }: { src: string; alt: string; className: string }): ReactElement {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <div className={`${className} shot-fallback`} role="img" aria-label={alt}>
        <span className="shot-bar" />
        <span className="shot-line w60" />
        <span className="shot-block" />
        <span className="shot-line w80" />
        <span className="shot-line w40" />
      </div>
    );
  }
  return (
    <img src={src} alt={alt} className={className} onError={() => setFailed(true)} loading="eager" decoding="async" />
  );
}
