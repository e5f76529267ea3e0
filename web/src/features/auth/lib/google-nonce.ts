/**
 * The nonce that ties a Google sign-in's landing (`/login?token=...&success=true&nonce=...`)
 * to a sign-in this tab started. Without it anyone could send a browser to a URL carrying
 * their own token and have the victim work inside the attacker's account (login CSRF).
 * Kept in sessionStorage: one tab, gone with it.
 */
const STORAGE_KEY = 'wallet.googleSignInNonce';

/** Where "Continue with Google" goes: the server keeps the nonce for the flow and brings it back. */
export function startGoogleSignInUrl(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const nonce = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  sessionStorage.setItem(STORAGE_KEY, nonce);
  return `/auth/google?nonce=${nonce}`;
}

/** True once for the nonce this tab started with; the stored nonce is used up either way. */
export function takeGoogleSignInNonce(received: string | null): boolean {
  const expected = sessionStorage.getItem(STORAGE_KEY);
  sessionStorage.removeItem(STORAGE_KEY);
  return expected !== null && received !== null && received === expected;
}
