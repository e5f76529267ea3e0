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
    .replace(/(?<!=)=+$/, '');
  sessionStorage.setItem(STORAGE_KEY, nonce);
  return `/auth/google?nonce=${nonce}`;
}

/** True once for the nonce this tab started with; the stored nonce is used up either way. */
export function takeGoogleSignInNonce(received: string | null): boolean {
  const expected = sessionStorage.getItem(STORAGE_KEY);
  sessionStorage.removeItem(STORAGE_KEY);
  return expected !== null && received !== null && received === expected;
}

/** The query parameters a Google sign-in lands with on /login (the session token among them). */
const LANDING_PARAMS = ['token', 'success', 'nonce'] as const;

/**
 * Takes the sign-in's landing parameters out of the address bar (history.replaceState, the
 * router's state kept): the token must not stay in the history, a bookmark or a shared
 * screen. The router has already read them; what else the query holds (`next`) stays.
 */
export function clearGoogleSignInFromAddressBar(): void {
  const url = new URL(window.location.href);
  if (!LANDING_PARAMS.some((name) => url.searchParams.has(name))) return;
  for (const name of LANDING_PARAMS) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
