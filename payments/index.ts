/**
 * Payments' public entry: the use-cases that move money in from a card, over the card port
 * (providers/card/) and the ledger. api/ imports from here.
 */
export {
  startCardDeposit,
  cardDepositId,
  CARD_DEPOSIT_PENDING_MESSAGE,
  CARD_DEPOSIT_SUCCESS_MESSAGE,
  type CardDepositDependencies,
  type CardDepositOutcome,
  type StartCardDepositInput,
} from './card-deposit.ts';
export {
  applyCardWebhookEvent,
  CARD_WEBHOOK_ACTOR,
  type CardWebhookDependencies,
  type CardWebhookResult,
} from './card-webhook.ts';
