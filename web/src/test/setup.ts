/**
 * Component test setup: unmount after each test, restore mocks, forget the checkpoint and any
 * noted rate limit, and the few browser APIs jsdom lacks that radix-ui touches.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetCheckpoint } from '../lib/checkpoint.ts';
import { resetRateLimit } from '../lib/rate-limit.ts';

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView(): void {};
window.HTMLElement.prototype.hasPointerCapture ??= () => false;
window.HTMLElement.prototype.releasePointerCapture ??= () => undefined;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.localStorage.clear();
  resetCheckpoint();
  resetRateLimit();
});
