/**
 * One Idempotency-Key per form submission: the same payload retried (after a network
 * failure, a double click) reuses its key, so the server runs the command once; a changed
 * payload is a new submission and gets a new key.
 */
import { useCallback, useRef } from 'react';

export function newUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface SubmissionKeys {
  /** The key for this payload: reused while the payload is unchanged and not yet completed. */
  keyFor: (payload: unknown) => string;
  /** Call after the server answered (success or refusal): the next submission is new. */
  complete: () => void;
}

export function useSubmissionKey(): SubmissionKeys {
  const current = useRef<{ payload: string; key: string } | null>(null);
  const keyFor = useCallback((payload: unknown) => {
    const text = JSON.stringify(payload);
    if (current.current?.payload !== text) current.current = { payload: text, key: newUuid() };
    return current.current.key;
  }, []);
  const complete = useCallback(() => {
    current.current = null;
  }, []);
  return { keyFor, complete };
}
