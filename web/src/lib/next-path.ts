/**
 * Where to go after sign-in: the `next` path a guard saved (e.g. a /user/<account> deep
 * link), only when it is a same-site path (no open redirect), else /dashboard.
 */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/dashboard';
}
