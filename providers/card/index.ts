/**
 * The card module's public entry for api/ and the composition root. See README.md for the
 * exact wiring of the deposit route and the webhook route.
 */
export * from './port.ts';
export { createCardProvider, cardConfigShape, type CardProviderEnv, type CardSetup } from './config.ts';
export { createStripeCardProvider, type StripeProviderOptions } from './stripe-provider.ts';
export { createSandboxCardProvider, sandboxPaymentMethodId, SANDBOX_TEST_CARDS } from './sandbox-provider.ts';
export { startCardDeposit, cardDepositId, type CardDepositDependencies, type CardDepositOutcome, type StartCardDepositInput } from './card-deposit.ts';
export { parseCardWebhook, applyCardWebhookEvent, CARD_WEBHOOK_ACTOR, type CardWebhookDependencies, type CardWebhookEvent, type CardWebhookResult } from './webhook.ts';
