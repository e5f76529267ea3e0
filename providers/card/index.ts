/**
 * The card module's public entry for payments/, api/ and the composition root: the port,
 * its adapters, the provider chosen from configuration, and webhook verification. What a
 * card payment does to the ledger is payments/'s. See README.md.
 */
export * from './port.ts';
export { createCardProvider, type CardProviderEnv, type CardProviderTestHooks, type CardSetup } from './config.ts';
export { createStripeCardProvider, type StripeProviderOptions } from './stripe-provider.ts';
export { createSandboxCardProvider, sandboxPaymentMethodId, SANDBOX_TEST_CARDS } from './sandbox-provider.ts';
export { parseCardWebhook, type CardWebhookEvent } from './webhook.ts';
