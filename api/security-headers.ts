/**
 * Security headers on every reply, web app pages and API replies alike (helmet):
 * a Content-Security-Policy that allows our own origin plus what Stripe.js needs, no framing
 * at all (the transfer and PIN forms must not be clickjacked), nosniff, no referrer, HSTS when
 * PUBLIC_URL is https, and a Permissions-Policy that lets only our own pages use the camera
 * (scan to pay).
 *
 * What the web app loads, and so what the policy allows:
 * - scripts and styles: its own bundle (Vite emits no inline script); Stripe.js from
 *   js.stripe.com when the card provider is Stripe;
 * - inline styles: Radix's scroll lock (dialogs) and Stripe Elements inject <style> elements;
 *   a style cannot run code, so 'unsafe-inline' is allowed for styles and never for scripts;
 * - images: its own files, data: URLs (the payment QR code, the favicon) and blob: URLs (an
 *   uploaded QR image is decoded from one);
 * - frames: Stripe's card field and 3-D Secure pages (js.stripe.com, hooks.stripe.com);
 * - connections: our API, and api.stripe.com for Stripe.js;
 * - fonts: its own (no web font service).
 * The API docs (/api/docs, Swagger UI) load only their own scripts and styles and data: images,
 * so the same policy serves them.
 */
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const STRIPE_SCRIPTS = ['https://js.stripe.com', 'https://*.js.stripe.com'] as const;
const STRIPE_FRAMES = [...STRIPE_SCRIPTS, 'https://hooks.stripe.com'] as const;
const STRIPE_API = 'https://api.stripe.com';

/** HSTS lifetime: one year, the usual figure (and the minimum for preload lists). */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Camera for our own pages (scan to pay); no microphone, location or USB for anyone. */
export const PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=(), usb=()';

export function contentSecurityPolicy(options: { https: boolean }): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...STRIPE_SCRIPTS],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", STRIPE_API],
    'frame-src': [...STRIPE_FRAMES],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    // Over plain http (local use) upgrading would break every request to the app itself.
    ...(options.https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

export async function installSecurityHeaders(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  const https = new URL(options.publicUrl).protocol === 'https:';
  // Built once: the Fastify plugin (@fastify/helmet 13) built helmet - and parsed the policy -
  // again for every request, ~4% of the API's busy time under bench B2 (bench/RESULTS.md).
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy({ https }) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Sent only where the app is really served over https: on http browsers ignore it anyway,
    // and a developer's localhost must not be pinned to https.
    hsts: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    // Helmet's middleware sets the headers on the raw response, as the plugin did; it calls
    // back synchronously, and throws (rather than calls back with) an error.
    setHeaders(request.raw, reply.raw, () => {});
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    done();
  });
}
