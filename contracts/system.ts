/**
 * The deployment-level replies: GET /api/config (what the web app needs before sign-in) and
 * the health probe. Nothing secret belongs in either.
 */
import { z } from 'zod';

export const publicAppConfigSchema = z.object({
  googleSignIn: z.boolean(),
  cardProvider: z.enum(['stripe', 'sandbox']),
  stripePublishableKey: z.string().optional().meta({ description: 'Only with the Stripe provider' }),
});
export type PublicAppConfig = z.output<typeof publicAppConfigSchema>;

export const healthSchema = z.object({ database: z.literal('up') });

/** One readiness check: whether it passed and what it found. */
export const readinessCheckSchema = z.object({ ok: z.boolean(), detail: z.string() });
export const readinessSchema = z.object({
  checks: z.object({
    database: readinessCheckSchema,
    migrations: readinessCheckSchema,
    projections: readinessCheckSchema,
  }),
});

/** GET /api/stats: this instance's real figures for the landing page (public, cached briefly). */
export const instanceStatsSchema = z.object({
  accounts: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'Customers: accounts an admin has verified, admins not counted' }),
  payments: z.number().int().nonnegative().meta({
    description: 'Payments out of wallets (transfers, paid money requests and reversals), rounded down to the hundred',
  }),
  moneyMoved: z.number().nonnegative().meta({ description: 'Rupees those payments moved, rounded down to ₹1,000' }),
  moneyMovedPaise: z.string().meta({ description: 'The same in paise, as a decimal string' }),
  asOf: z.string().meta({ description: 'ISO 8601, UTC: when the figures were read' }),
});
export type InstanceStats = z.output<typeof instanceStatsSchema>;
