/**
 * The boxes of the architecture diagram, by layer (web app, API, data, external services),
 * each with the detail the page shows when it is selected.
 */
export interface Box {
  id: string;
  label: string;
  detail: string;
}

export const LAYERS: { title: string; boxes: Box[] }[] = [
  {
    title: 'Web app',
    boxes: [
      {
        id: 'login',
        label: 'Login',
        detail:
          'E-mail and password or Google sign-in. A signed token valid for 24 hours is kept in the browser and sent as a bearer header.',
      },
      {
        id: 'dashboard',
        label: 'Dashboard',
        detail: 'Greeting, balance, account number, payment QR code, quick actions and the 3 newest transactions.',
      },
      {
        id: 'transfer',
        label: 'Transfer',
        detail:
          'Verify the receiver, then amount, reference and PIN. Sent with an Idempotency-Key so a retry never pays twice.',
      },
      {
        id: 'request',
        label: 'Request',
        detail: 'Ask another account for money; the receiver approves with a PIN or rejects.',
      },
      {
        id: 'deposit',
        label: 'Deposit',
        detail: 'Card (instant, through the card payment provider), bank transfer or UPI (pending until settled).',
      },
      {
        id: 'qr',
        label: 'QR Code',
        detail: 'Shows your own payment QR and scans others with the camera (one frame a second) or an uploaded image.',
      },
      {
        id: 'profile',
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
        label: 'Auth',
        detail:
          'Sign-in, registration and Google OAuth. Tokens expire after 24 hours; suspended users are refused on every request.',
      },
      {
        id: 'user-management',
        label: 'User Management',
        detail: 'Admins list users and verify or suspend them. The admin check is enforced on the server.',
      },
      {
        id: 'transaction-api',
        label: 'Transaction API',
        detail:
          'Verify account, transfer, deposit and history. Every money command appends to a double-entry ledger in one database transaction.',
      },
      {
        id: 'request-api',
        label: 'Request API',
        detail: 'Send, list, accept and reject money requests. An accepted request creates the transfer automatically.',
      },
      {
        id: 'pin',
        label: 'PIN Verification',
        detail: 'The transaction PIN is hashed (12 rounds) and checked before every payment.',
      },
      {
        id: 'otp',
        label: 'OTP Service',
        detail: '6-digit one-time codes for password and PIN reset, valid 10-15 minutes, 5 attempts, stored hashed.',
      },
      {
        id: 'middleware',
        label: 'Middleware',
        detail:
          'Authentication, rate limits (100 requests per 15 minutes; 10 on authentication routes), validation with shared schemas and one error table.',
      },
    ],
  },
  {
    title: 'Data',
    boxes: [
      {
        id: 'cache',
        label: 'Cache',
        detail:
          'Read models (projections) built from the ledger play the role of a cache: balances, history and requests, always consistent with a checkpoint.',
      },
      {
        id: 'users',
        label: 'Users',
        detail: 'Identity records: names, e-mail, documents, role and verification state. Never sent with hashes.',
      },
      {
        id: 'transactions',
        label: 'Transactions',
        detail: 'An append-only ledger of events; balances are sums of postings that always add up to zero.',
      },
      { id: 'requests', label: 'Requests', detail: 'Money requests with their status: pending, accepted or rejected.' },
      { id: 'otp-store', label: 'OTP Store', detail: 'Hashed one-time codes with expiry and attempt counters.' },
    ],
  },
  {
    title: 'External services',
    boxes: [
      {
        id: 'card',
        label: 'Card Payment Provider',
        detail:
          'Stripe (or a local sandbox) creates and charges the card payment method; the card number never reaches our servers.',
      },
      {
        id: 'mail',
        label: 'Mail Service',
        detail: 'Sends verification notices and one-time codes by e-mail, from a job queue.',
      },
      {
        id: 'social',
        label: 'Social Sign-in',
        detail: 'Google OAuth: returns to the sign-in screen with a token or an error code.',
      },
      { id: 'qr-generator', label: 'QR Generator', detail: 'Renders the payment QR code for your account link.' },
    ],
  },
];

export const ALL_BOXES = LAYERS.flatMap((layer) => layer.boxes);
