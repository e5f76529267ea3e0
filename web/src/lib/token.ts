/**
 * The session token in local storage under `token` (spec section 6): the only client-side
 * access decision is whether it is present.
 */
const TOKEN_KEY = 'token';

export function readToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  window.localStorage.removeItem(TOKEN_KEY);
}
