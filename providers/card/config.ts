/**
 * Choosing the card provider from configuration: Stripe when STRIPE_SECRET_KEY is set, the
 * local sandbox otherwise. The composition root passes its parsed config (platform/config.ts
 * does not know these keys yet; `cardConfigShape` is what it should add).
 */
import { z } from 'zod';
import { createSandboxCardProvider } from './sandbox-provider.ts';
import { createStripeCardProvider } from './stripe-provider.ts';
import type { CardProvider } from './port.ts';

export interface CardProviderEnv {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  /** Only to point the SDK somewhere else than api.stripe.com (a local fake server). */
  STRIPE_API_HOST?: string | undefined;
  STRIPE_API_PORT?: string | number | undefined;
  STRIPE_API_PROTOCOL?: string | undefined;
}

/** The card keys as zod fields, to spread into platform/config.ts's schema. */
export const cardConfigShape = {
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_HOST: z.string().min(1).optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
};
const cardConfigSchema = z.object(cardConfigShape);

export interface CardSetup {
  provider: CardProvider;
  /** Null when webhooks cannot be verified: the webhook route must then refuse every call. */
  webhookSecret: string | null;
}

/** Throws on malformed values, so a bad deployment fails at boot, not at the first deposit. */
export function createCardProvider(env: CardProviderEnv): CardSetup {
  const parsed = cardConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid card provider configuration:\n  ${problems.join('\n  ')}`);
  }
  const config = parsed.data;
  const webhookSecret = config.STRIPE_WEBHOOK_SECRET ?? null;
  if (config.STRIPE_SECRET_KEY === undefined) return { provider: createSandboxCardProvider(), webhookSecret };
  const provider = createStripeCardProvider({
    secretKey: config.STRIPE_SECRET_KEY,
    host: config.STRIPE_API_HOST,
    port: config.STRIPE_API_PORT,
    protocol: config.STRIPE_API_PROTOCOL,
  });
  return { provider, webhookSecret };
}
