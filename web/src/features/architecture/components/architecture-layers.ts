/**
 * The boxes of the architecture diagram, by layer (web app, API, data, external services),
 * each with the detail the page shows when it is selected and the folders of the code that
 * build it - names of the code map (contracts/code-map.ts), so a renamed folder fails the
 * typecheck here instead of leaving the page describing a folder that is gone.
 */
import type { CodeFolder } from '../../../../../contracts/code-map.ts';

export interface Box {
  id: string;
  label: string;
  detail: string;
  /** Where it lives: the page shows each folder with what the code map says it owns. */
  where: readonly CodeFolder[];
}

export const LAYERS: { title: string; boxes: Box[] }[] = [
  {
    title: 'Web app',
    boxes: [
      {
        id: 'login',
        where: ['web', 'api', 'identity'],
        label: 'Login',
        detail:
          'E-mail and password or Google sign-in. A signed token (valid 12 hours, 24 with Remember me) is kept in the browser and sent as a bearer header.',
      },
      {
        id: 'dashboard',
        where: ['web', 'api', 'projections'],
        label: 'Dashboard',
        detail: 'Greeting, balance, account number, payment QR code, quick actions and the 3 newest transactions.',
      },
      {
        id: 'transfer',
        where: ['web', 'api', 'ledger'],
        label: 'Transfer',
        detail:
          'Verify the receiver, then amount, reference and PIN. Sent with an Idempotency-Key so a retry never pays twice.',
      },
      {
        id: 'request',
        where: ['web', 'api', 'ledger'],
        label: 'Request',
        detail: 'Ask another account for money; the receiver approves with a PIN or rejects.',
      },
      {
        id: 'deposit',
        where: ['web', 'api', 'payments', 'ledger'],
        label: 'Deposit',
        detail: 'Card (instant, through the card payment provider), bank transfer or UPI (pending until settled).',
      },
      {
        id: 'qr',
        where: ['web', 'contracts'],
        label: 'QR Code',
        detail: 'Shows your own payment QR and scans others with the camera (one frame a second) or an uploaded image.',
      },
      {
        id: 'profile',
        where: ['web', 'api', 'identity'],
        label: 'Profile',
        detail: 'Your identity details as registered: name, e-mail, contact number, identity document.',
      },
    ],
  },
  {
    title: 'API',
    boxes: [
      {
        id: 'auth',
        where: ['api', 'identity'],
        label: 'Auth',
        detail:
          'Sign-in, registration and Google OAuth. Tokens expire after 12 hours (24 with Remember me); suspended users are refused on every request.',
      },
      {
        id: 'user-management',
        where: ['api', 'identity'],
        label: 'User Management',
        detail: 'Admins list users and verify or suspend them. The admin check is enforced on the server.',
      },
      {
        id: 'transaction-api',
        where: ['api', 'ledger', 'projections'],
        label: 'Transaction API',
        detail:
          'Verify account, transfer, deposit and history. Every money command appends to a double-entry ledger in one database transaction.',
      },
      {
        id: 'request-api',
        where: ['api', 'ledger', 'projections'],
        label: 'Request API',
        detail: 'Send, list, accept and reject money requests. An accepted request creates the transfer automatically.',
      },
      {
        id: 'pin',
        where: ['identity'],
        label: 'PIN Verification',
        detail:
          'The transaction PIN is stored as a bcrypt hash (cost 12) with a peppered verifier beside it and checked before every payment; wrong guesses lock it for longer each time.',
      },
      {
        id: 'otp',
        where: ['identity', 'notifications'],
        label: 'OTP Service',
        detail:
          '6-digit one-time codes for password and PIN reset, valid 15 minutes (password) or 10 (PIN), 5 attempts, stored as keyed hashes (HMAC).',
      },
      {
        id: 'middleware',
        where: ['api', 'contracts'],
        label: 'Middleware',
        detail:
          'Authentication, rate limits per 15 minutes counted in the database (10 per address on each sign-in route, 100 per account for commands and per address elsewhere, 600 per account for reads), validation with shared schemas and one error table.',
      },
    ],
  },
  {
    title: 'Data',
    boxes: [
      {
        id: 'cache',
        where: ['projections'],
        label: 'Cache',
        detail:
          'Read models (projections) built from the ledger play the role of a cache: balances, history and requests, always consistent with a checkpoint.',
      },
      {
        id: 'users',
        where: ['identity'],
        label: 'Users',
        detail: 'Identity records: names, e-mail, documents, role and verification state. Never sent with hashes.',
      },
      {
        id: 'transactions',
        where: ['ledger'],
        label: 'Transactions',
        detail: 'An append-only ledger of events; balances are sums of postings that always add up to zero.',
      },
      {
        id: 'requests',
        label: 'Requests',
        detail: 'Money requests with their status: pending, accepted or rejected.',
        where: ['ledger', 'projections'],
      },
      {
        id: 'otp-store',
        label: 'OTP Store',
        detail: 'Hashed one-time codes with expiry and attempt counters.',
        where: ['identity'],
      },
    ],
  },
  {
    title: 'External services',
    boxes: [
      {
        id: 'card',
        where: ['providers', 'payments'],
        label: 'Card Payment Provider',
        detail:
          'Stripe (or a local sandbox) creates and charges the card payment method; the card number never reaches our servers.',
      },
      {
        id: 'mail',
        where: ['notifications'],
        label: 'Mail Service',
        detail: 'Sends verification notices and one-time codes by e-mail, from a job queue.',
      },
      {
        id: 'social',
        where: ['api', 'identity'],
        label: 'Social Sign-in',
        detail: 'Google OAuth: returns to the sign-in screen with a token or an error code.',
      },
      {
        id: 'qr-generator',
        label: 'QR Generator',
        detail: 'Renders the payment QR code for your account link.',
        where: ['api', 'contracts'],
      },
    ],
  },
];

export const ALL_BOXES = LAYERS.flatMap((layer) => layer.boxes);
