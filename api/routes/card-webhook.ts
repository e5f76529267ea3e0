/**
 * POST /api/payments/card/webhook: the card provider's signed notifications settle card
 * payments that finished asynchronously (3-D Secure), exactly once. The body is kept raw:
 * the signature covers the exact bytes. No authentication: the signature is the proof.
 */
import type { FastifyInstance } from 'fastify';
import { applyCardWebhookEvent } from '../../payments/index.ts';
import { parseCardWebhook } from '../../providers/card/index.ts';
import {
  CARD_WEBHOOK_PATH,
  cardWebhookEventSchema,
  cardWebhookHeadersSchema,
  cardWebhookResultSchema,
} from '../../contracts/transactions.ts';
import { routeDocs, withData } from '../docs.ts';
import { ok } from '../envelope.ts';
import { ApiError } from '../errors.ts';
import type { MoneyDependencies } from '../money-context.ts';

export async function registerCardWebhook(app: FastifyInstance, deps: MoneyDependencies): Promise<void> {
  // Encapsulated: the raw-body parser applies to this route only.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 256 * 1024 },
      (_request, body, done) => done(null, body),
    );
    const docs = routeDocs({
      summary: "The card provider's signed notifications (Stripe)",
      description:
        'Settles card payments that finished asynchronously, exactly once. 404 when webhooks are not configured; 400 for a bad signature.',
      body: cardWebhookEventSchema,
      headers: cardWebhookHeadersSchema,
      replies: { 200: withData(cardWebhookResultSchema, 'Received (every result is answered 2xx)') },
      errors: [404, 503],
      rateLimited: false,
    });
    scope.post(CARD_WEBHOOK_PATH, docs, async (request, reply) => {
      if (deps.card.webhookSecret === null) throw new ApiError('not_found', 'Card webhooks are not configured');
      const signature = request.headers['stripe-signature'];
      const event = parseCardWebhook(
        request.body as Buffer,
        Array.isArray(signature) ? signature[0] : signature,
        deps.card.webhookSecret,
      );
      if (event.type === 'rejected') throw new ApiError('validation_failed', 'Invalid webhook signature');
      const result = await applyCardWebhookEvent({ ledger: deps.ledger, provider: deps.card.provider }, event);
      // A mismatch is answered 2xx (a retry would not change it) but logged loudly: either a
      // bug in how payments are created or someone replaying another payment's metadata.
      if (result.result === 'payment_mismatch')
        request.log.warn(
          { result: result.result, depositId: result.depositId },
          'card webhook does not match the recorded deposit',
        );
      else request.log.info({ result: result.result }, 'card webhook applied');
      return ok(reply, 'received', { received: true, result: result.result });
    });
  });
}
