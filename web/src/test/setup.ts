/**
 * Component test setup: the app's texts in English (as the tests read them), unmount after
 * each test, restore mocks, the language, the checkpoint and any noted rate limit, and the
 * few browser APIs jsdom lacks that radix-ui touches.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { loadLanguage, startI18n } from '../i18n/i18n.ts';
import { resetCheckpoint } from '../lib/checkpoint.ts';
import { resetRateLimit } from '../lib/rate-limit.ts';

// Hindi's texts are a lazy chunk in the app; here they are loaded up front so a test's switch
// to Hindi applies at once, as it does in the app once the chunk is in.
void startI18n('en');
await loadLanguage('hi');

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
  void startI18n('en');
});
