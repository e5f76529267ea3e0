/**
 * Choosing the card provider from configuration: CARD_PROVIDER when set (`stripe` needs
 * STRIPE_SECRET_KEY); otherwise Stripe when STRIPE_SECRET_KEY is set and the local sandbox
 * when not - except in production mode, where the sandbox (it credits test cards without any
 * payment) is used only when chosen explicitly with CARD_PROVIDER=sandbox. The composition
 * root passes its parsed config; only tests pass the second argument, which no setting reaches.
 */
import { z } from 'zod';
import { createSandboxCardProvider } from './sandbox-provider.ts';
import { createStripeCardProvider, type StripeProviderOptions } from './stripe-provider.ts';
import type { CardProvider } from './port.ts';

export interface CardProviderEnv {
  CARD_PROVIDER?: 'stripe' | 'sandbox' | undefined;
  /** Production mode (platform/config.ts PRODUCTION): no implicit sandbox. */
  PRODUCTION?: boolean | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
}

const cardConfigSchema = z.object({
  CARD_PROVIDER: z.enum(['stripe', 'sandbox']).optional(),
  PRODUCTION: z.boolean().optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
});

/**
 * Test wiring only: where the Stripe SDK sends its requests (a local fake server) instead of
 * api.stripe.com. It is a parameter, not a setting, so no environment can point a deployed
 * wallet's card payments at another host.
 */
export interface CardProviderTestHooks {
  stripeApi?: Pick<StripeProviderOptions, 'host' | 'port' | 'protocol'>;
}

export interface CardSetup {
  provider: CardProvider;
  /** Null when webhooks cannot be verified: the webhook route must then refuse every call. */
  webhookSecret: string | null;
}

/** Throws on malformed values, so a bad deployment fails at boot, not at the first deposit. */
export function createCardProvider(env: CardProviderEnv, testHooks: CardProviderTestHooks = {}): CardSetup {
  const parsed = cardConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid card provider configuration:\n  ${problems.join('\n  ')}`);
  }
  const config = parsed.data;
  const webhookSecret = config.STRIPE_WEBHOOK_SECRET ?? null;
  const choice = config.CARD_PROVIDER ?? (config.STRIPE_SECRET_KEY === undefined ? 'sandbox' : 'stripe');
  if (choice === 'sandbox') {
    // platform/production.ts refuses this at startup with the whole list of problems; this is
    // the backstop for a composition root that skipped that check.
    if (config.PRODUCTION && config.CARD_PROVIDER !== 'sandbox') {
      throw new Error(
        'Refusing the sandbox card provider in production mode: set STRIPE_SECRET_KEY, or CARD_PROVIDER=sandbox to allow it',
      );
    }
    return { provider: createSandboxCardProvider(), webhookSecret };
  }
  if (config.STRIPE_SECRET_KEY === undefined)
    throw new Error('Invalid card provider configuration: CARD_PROVIDER=stripe needs STRIPE_SECRET_KEY');
  const provider = createStripeCardProvider({ ...testHooks.stripeApi, secretKey: config.STRIPE_SECRET_KEY });
  return { provider, webhookSecret };
}
