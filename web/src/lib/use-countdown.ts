/**
 * A seconds countdown (resend wait of 60 s, the pending screen's 60 s): start(n), then
 * `remaining` ticks down to 0 once a second.
 */
import { useCallback, useEffect, useState } from 'react';

export function useCountdown(): { remaining: number; start: (seconds: number) => void; reset: () => void } {
  const [remaining, setRemaining] = useState(0);
  useEffect(() => {
    if (remaining <= 0) return undefined;
    const timer = window.setTimeout(() => setRemaining((current) => Math.max(0, current - 1)), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining]);
  const start = useCallback((seconds: number) => setRemaining(seconds), []);
  const reset = useCallback(() => setRemaining(0), []);
  return { remaining, start, reset };
}
