/**
 * The /api/users routes of spec section 7, plus verify-transaction-pin and
 * update-transaction-pin (overview page). Bodies are checked by the shared schemas of
 * contracts/users.ts on each route (routeSchema; get-user-info, which merges its query and
 * body, parses them itself); replies carry only the user record of spec section 3.
 */
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import {
  codeSentSchema,
  loginSchema,
  qrDataUrlSchema,
  registerPayloadSchema,
  resetEmailSchema,
  resetPasswordSchema,
  resetPinSchema,
  sessionTokenSchema,
  updatePinSchema,
  updateVerifiedStatusSchema,
  verifyOtpSchema,
  userRecordSchema,
  verifyPinSchema,
} from '../../contracts/users.ts';
import { accountUrl } from '../../contracts/qr.ts';
import { checkpointToken } from '../../contracts/fields.ts';
import {
  endSessions,
  issueCode,
  listAccounts,
  registerUser,
  resetPassword,
  resetTransactionPin,
  setVerified,
  signInWithPassword,
  updateTransactionPin,
  userRecordOf,
  verifyCode,
  verifyTransactionPin,
  type BalanceReader,
  type Clock,
  type CodeDependencies,
  type PinKeys,
} from '../../identity/index.ts';
import type { Ledger } from '../../ledger/index.ts';
import { enqueueEmail } from '../../notifications/enqueue.ts';
import type { JobBoss } from '../../platform/jobs.ts';
import { requireAdmin, requireUser, signSessionToken } from '../auth/authenticate.ts';
import { authRateLimit, type RateLimitSettings } from '../auth/rate-limit.ts';
import { messageOnly, routeDocs, routeSchema, withData, type RouteDocs } from '../docs.ts';
import { ok } from '../envelope.ts';
import type { ZodRoutes, ZodTypeProvider } from '../request-validation.ts';

export interface UserRouteDependencies {
  db: Kysely<unknown>;
  boss: JobBoss;
  ledger: Ledger;
  balances: BalanceReader;
  clock: Clock;
  publicUrl: string;
  rateLimit: RateLimitSettings;
  keys: { otpPepper: Buffer; sealKey: Buffer; pinKeys: PinKeys };
  /** Read-your-writes for the balance: waits (bounded) until the balances reflect a command's checkpoint. */
  awaitBalances?: (checkpoint: string) => Promise<unknown>;
}

/** The session check sends no body; our web app may send the checkpoint of its last command (query or body). */
const userInfoQuery = z
  .object({
    minPosition: checkpointToken.optional(),
  })
  .catch({});

export const OTP_SENT_MESSAGE = 'OTP sent to your email!';

const PIN_ERRORS: RouteDocs['errors'] = [403, 429, 503];

/** The OpenAPI description of each route, from the zod contracts (api/docs.ts). */
const DOCS = {
  register: routeSchema({
    summary: 'Register (the account waits for an admin to verify it)',
    body: registerPayloadSchema,
    absentBodyIsEmpty: true,
    replies: { 201: messageOnly('Registered') },
    errors: [409],
  }),
  login: routeSchema({
    summary: 'Sign in with e-mail and password',
    description: '`data` is the session token; `rememberMe` makes it last longer.',
    body: loginSchema,
    absentBodyIsEmpty: true,
    replies: { 200: withData(sessionTokenSchema, 'Signed in') },
    errors: [401, 403],
  }),
  logout: routeSchema({
    summary: 'Sign out everywhere (ends every session of the account)',
    replies: { 200: messageOnly('Signed out') },
  }),
  userInfo: routeDocs({
    summary: "The signed-in user's record (the session check)",
    description:
      'No body needed (an empty JSON body is fine). `minPosition` (body or query): answer once the balance reflects that checkpoint.',
    body: userInfoQuery,
    querystring: userInfoQuery,
    replies: { 200: withData(userRecordSchema, 'The user') },
  }),
  allUsers: routeSchema({
    summary: 'Every user (admins)',
    replies: { 200: withData(z.array(userRecordSchema), 'The users') },
  }),
  verifiedStatus: routeSchema({
    summary: 'Verify (activate) or suspend a user (admins)',
    description:
      'Body `{selectedUser, isVerified}` or `{user, status}`, and `documentChecked: true` when the admin checked the identity document (recorded with the activation; `false` refuses it). Verifying e-mails the user.',
    body: updateVerifiedStatusSchema,
    absentBodyIsEmpty: true,
    replies: { 200: withData(userRecordSchema, 'The updated user') },
    errors: [404],
  }),
  qr: routeSchema({
    summary: "The signed-in user's payment QR code",
    description: "Any query is ignored: the code is always the caller's own.",
    replies: { 200: withData(qrDataUrlSchema, 'The QR code') },
  }),
  verifyPin: routeSchema({
    summary: 'Check the transaction PIN',
    description: 'Wrong guesses count towards the PIN lockout (429 PIN_LOCKED, then 403 PIN_RESET_REQUIRED).',
    body: verifyPinSchema,
    absentBodyIsEmpty: true,
    replies: { 200: messageOnly('The PIN is right') },
    errors: PIN_ERRORS,
  }),
  updatePin: routeSchema({
    summary: 'Change the transaction PIN (the current PIN, then the new one)',
    body: updatePinSchema,
    absentBodyIsEmpty: true,
    replies: { 200: messageOnly('PIN changed') },
    errors: PIN_ERRORS,
  }),
  resetPassword: routeSchema({
    summary: 'Set a new password with a verified code',
    body: resetPasswordSchema,
    absentBodyIsEmpty: true,
    replies: { 200: messageOnly('Password changed') },
  }),
  resetPin: routeSchema({
    summary: 'Set a new transaction PIN with a verified code',
    body: resetPinSchema,
    absentBodyIsEmpty: true,
    replies: { 200: messageOnly('PIN changed') },
  }),
};

/** The three code routes of one purpose (password or PIN reset). */
function codeDocs(purpose: string) {
  const send = (verb: string) =>
    routeSchema({
      summary: `${verb} a ${purpose} reset code by e-mail`,
      description: 'The same reply whether or not an account has this e-mail.',
      body: resetEmailSchema,
      absentBodyIsEmpty: true,
      replies: { 200: withData(codeSentSchema, 'Code sent') },
    });
  return {
    send: send('Send'),
    resend: send('Resend'),
    verify: routeSchema({
      summary: `Check a ${purpose} reset code`,
      body: verifyOtpSchema,
      absentBodyIsEmpty: true,
      replies: { 200: messageOnly('Code verified') },
    }),
  };
}

export function registerUserRoutes(server: FastifyInstance, deps: UserRouteDependencies): void {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const authLimited = { config: authRateLimit(deps.rateLimit) };
  const signedIn = { preValidation: app.authenticate };

  app.post('/api/users/register', { ...authLimited, ...DOCS.register }, async (request, reply) => {
    const input = request.body;
    await registerUser(deps.db, deps.ledger, input, deps.keys.pinKeys, request.id);
    return ok(reply, 'Registration successful! Your account will be verified by an administrator.', undefined, 201);
  });

  app.post('/api/users/login', { ...authLimited, ...DOCS.login }, async (request, reply) => {
    const input = request.body;
    const account = await signInWithPassword(deps.db, input.email, input.password);
    return ok(
      reply,
      'Login successful! Welcome back.',
      signSessionToken(server, account, { rememberMe: input.rememberMe }),
    );
  });

  app.post('/api/users/logout', { ...signedIn, ...DOCS.logout }, async (request, reply) => {
    const user = await requireUser(request);
    await endSessions(deps.db, user.id);
    return ok(reply, 'Logged out successfully');
  });

  app.post('/api/users/get-user-info', { ...signedIn, ...DOCS.userInfo }, async (request, reply) => {
    const user = await requireUser(request);
    const { minPosition } = userInfoQuery.parse({
      ...(request.query as object | undefined),
      ...(request.body as object | undefined),
    });
    if (minPosition && deps.awaitBalances) await deps.awaitBalances(minPosition);
    return ok(reply, 'User fetched successfully', await userRecordOf(user, deps.balances));
  });

  registerAdminUserRoutes(app, deps);

  // Any query (the spec's client sends ?url[userId]=...) is ignored: the code is always the caller's own.
  app.get('/api/users/generate-qr', { ...signedIn, ...DOCS.qr }, async (request, reply) => {
    const user = await requireUser(request);
    const dataUrl = await QRCode.toDataURL(accountUrl(deps.publicUrl, user.id, user.handle), {
      width: 256,
      margin: 2,
      errorCorrectionLevel: 'M',
    });
    return ok(reply, 'QR code generated successfully', dataUrl);
  });

  registerPinRoutes(app, deps, authLimited);
  registerCodeRoutes(app, deps, authLimited);
}

/** Admins list the users and verify (activate) or suspend them. */
function registerAdminUserRoutes(app: ZodRoutes, deps: UserRouteDependencies): void {
  app.get(
    '/api/users/get-all-users',
    { preValidation: app.requireAdmin, ...DOCS.allUsers },
    async (_request, reply) => {
      const accounts = await listAccounts(deps.db);
      return ok(
        reply,
        'Users fetched successfully',
        await Promise.all(accounts.map((account) => userRecordOf(account, deps.balances))),
      );
    },
  );

  app.post(
    '/api/users/update-user-verified-status',
    { preValidation: app.requireAdmin, ...DOCS.verifiedStatus },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const input = request.body;
      const { account } = await deps.db.transaction().execute(async (trx) => {
        const changed = await setVerified(trx, {
          actorId: admin.id,
          userId: input.userId,
          isVerified: input.isVerified,
          documentChecked: input.documentChecked,
        });
        if (changed.activated)
          await enqueueEmail(deps.boss, trx, {
            kind: 'account_verified',
            to: changed.account.email,
            firstName: changed.account.firstName,
            requestId: request.id,
          });
        return changed;
      });
      return ok(
        reply,
        input.isVerified ? 'User verified successfully' : 'User suspended successfully',
        await userRecordOf(account, deps.balances),
      );
    },
  );
}

/** Checking and changing the transaction PIN: signed in, and limited like sign-in (guesses). */
function registerPinRoutes(
  app: ZodRoutes,
  deps: UserRouteDependencies,
  authLimited: { config: ReturnType<typeof authRateLimit> },
): void {
  const signedInAndLimited = { preValidation: app.authenticate, ...authLimited };
  app.post(
    '/api/users/verify-transaction-pin',
    { ...signedInAndLimited, ...DOCS.verifyPin },
    async (request, reply) => {
      const user = await requireUser(request);
      const input = request.body;
      await verifyTransactionPin(
        { db: deps.db, keys: deps.keys.pinKeys, clock: deps.clock },
        user.id,
        input.transactionPin,
      );
      return ok(reply, 'Transaction PIN verified');
    },
  );

  app.post(
    '/api/users/update-transaction-pin',
    { ...signedInAndLimited, ...DOCS.updatePin },
    async (request, reply) => {
      const user = await requireUser(request);
      const input = request.body;
      await updateTransactionPin(
        { db: deps.db, keys: deps.keys.pinKeys, clock: deps.clock },
        user.id,
        input.currentPin,
        input.newPin,
      );
      return ok(reply, 'Transaction PIN updated successfully!');
    },
  );
}

/** The 8 one-time-code routes (no token: the e-mail is the proof). */
function registerCodeRoutes(
  app: ZodRoutes,
  deps: UserRouteDependencies,
  authLimited: { config: ReturnType<typeof authRateLimit> },
): void {
  const codes: CodeDependencies = {
    db: deps.db,
    boss: deps.boss,
    clock: deps.clock,
    otpPepper: deps.keys.otpPepper,
    sealKey: deps.keys.sealKey,
    pinKeys: deps.keys.pinKeys,
  };
  for (const [purpose, prefix] of [
    ['password', 'password-reset'],
    ['pin', 'pin-reset'],
  ] as const) {
    const send = async (request: { body: { email: string }; id: string }) =>
      issueCode(codes, request.body.email, purpose, request.id);
    const docs = codeDocs(purpose);
    app.post(`/api/users/send-${prefix}-otp`, { ...authLimited, ...docs.send }, async (request, reply) =>
      ok(reply, OTP_SENT_MESSAGE, await send(request)),
    );
    app.post(`/api/users/resend-${prefix}-otp`, { ...authLimited, ...docs.resend }, async (request, reply) =>
      ok(reply, OTP_SENT_MESSAGE, await send(request)),
    );
    app.post(`/api/users/verify-${prefix}-otp`, { ...authLimited, ...docs.verify }, async (request, reply) => {
      const input = request.body;
      await verifyCode(codes, input.email, purpose, input.otp);
      return ok(reply, 'OTP verified successfully!');
    });
  }
  app.post('/api/users/reset-password', { ...authLimited, ...DOCS.resetPassword }, async (request, reply) => {
    const input = request.body;
    await resetPassword(codes, input.email, input.otp, input.newPassword);
    return ok(reply, 'Password reset successfully! You can now login with your new password.');
  });
  app.post('/api/users/reset-transaction-pin', { ...authLimited, ...DOCS.resetPin }, async (request, reply) => {
    const input = request.body;
    await resetTransactionPin(codes, input.email, input.otp, input.newPin);
    return ok(reply, 'Transaction PIN updated successfully!');
  });
}
