/**
 * The offline sandbox provider's documented test cards, and the factory that picks Stripe or
 * the sandbox from configuration (Stripe checked against the local fake server). What a
 * charge does to a wallet is payments/card-deposit.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rupees } from '../../ledger/index.ts';
import { startFakeStripeServer, type FakeStripeServer } from '../../test/fake-stripe-server.ts';
import { createSandboxCardProvider, sandboxPaymentMethodId } from './sandbox-provider.ts';
import { createCardProvider } from './config.ts';
import { CARD_FAILURE_MESSAGES, type CardChargeRequest } from './port.ts';

let fake: FakeStripeServer;

beforeAll(async () => {
  fake = await startFakeStripeServer();
});

afterAll(async () => {
  await fake.close();
});

function request(paymentMethodId: string, idempotencyKey = 'k1'): CardChargeRequest {
  return {
    amountPaise: rupees(100),
    paymentMethodId,
    depositId: 'd1',
    walletId: 'sana',
    reference: 'test',
    idempotencyKey,
  };
}

describe('the sandbox provider', () => {
  const sandbox = createSandboxCardProvider();

  it.each([
    ['4242424242424242', 'succeeded', null],
    ['4000000000000002', 'declined', 'card_declined'],
    ['4000000000009995', 'declined', 'insufficient_funds'],
    ['4000000000003220', 'declined', 'authentication_required'],
    ['4000000000000069', 'declined', 'expired_card'],
    ['4000000000000127', 'declined', 'incorrect_cvc'],
    ['4000000000000119', 'declined', 'processing_error'],
  ] as const)('test card %s -> %s %s', async (cardNumber, status, code) => {
    const outcome = await sandbox.charge(request(sandboxPaymentMethodId(cardNumber)));
    expect(outcome.status).toBe(status);
    if (code !== null) expect(outcome).toMatchObject({ code, message: CARD_FAILURE_MESSAGES[code] });
  });

  it.each([
    ['pm_card_visa', 'succeeded'],
    ['pm_card_chargeDeclined', 'card_declined'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
  ])("accepts Stripe's test id %s", async (paymentMethodId, expected) => {
    const outcome = await sandbox.charge(request(paymentMethodId));
    expect(outcome.status === 'declined' ? outcome.code : outcome.status).toBe(expected);
  });

  it.each(['pm_sandbox_1111', 'pm_1Nabc', '', '4242424242424242'])(
    'refuses anything else (%j) as invalid card details',
    async (paymentMethodId) => {
      expect(await sandbox.charge(request(paymentMethodId))).toMatchObject({
        status: 'declined',
        code: 'invalid_payment_method',
      });
    },
  );

  it('gives the same payment id for the same idempotency key, another for another key', async () => {
    const first = await sandbox.charge(request('pm_card_visa', 'same'));
    const again = await sandbox.charge(request('pm_card_visa', 'same'));
    const other = await sandbox.charge(request('pm_card_visa', 'other'));
    expect(first).toEqual(again);
    expect(other).not.toEqual(first);
  });
});

describe('createCardProvider', () => {
  it('uses the sandbox when no secret key is configured', () => {
    expect(createCardProvider({})).toEqual({
      provider: expect.objectContaining({ name: 'sandbox' }),
      webhookSecret: null,
    });
  });

  it('uses Stripe at the configured address when a secret key is configured', async () => {
    const { provider, webhookSecret } = createCardProvider(
      { STRIPE_SECRET_KEY: 'sk_test_from_env', STRIPE_WEBHOOK_SECRET: 'whsec_from_env' },
      { stripeApi: { host: fake.host, port: fake.port, protocol: 'http' } },
    );
    expect(provider.name).toBe('stripe');
    expect(webhookSecret).toBe('whsec_from_env');
    const outcome = await provider.charge({
      amountPaise: 12_345n,
      paymentMethodId: 'pm_card_visa',
      depositId: 'd-env',
      walletId: 'omar',
      reference: 'from env',
      idempotencyKey: 'k-env',
    });
    expect(outcome.status).toBe('succeeded');
    expect(fake.requests.at(-1)).toMatchObject({
      authorization: 'Bearer sk_test_from_env',
      params: { amount: '12345', currency: 'inr' },
    });
  });

  it('CARD_PROVIDER chooses explicitly: sandbox even with a key; stripe never without one', () => {
    expect(createCardProvider({ CARD_PROVIDER: 'sandbox', STRIPE_SECRET_KEY: 'sk_test_x' }).provider.name).toBe(
      'sandbox',
    );
    expect(createCardProvider({ CARD_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' }).provider.name).toBe(
      'stripe',
    );
    expect(() => createCardProvider({ CARD_PROVIDER: 'stripe' })).toThrow(
      /CARD_PROVIDER=stripe needs STRIPE_SECRET_KEY/,
    );
  });

  it('regression: in production mode the sandbox (it credits test cards unpaid) is never chosen implicitly', () => {
    expect(() => createCardProvider({ PRODUCTION: true })).toThrow(
      /sandbox card provider in production mode.*CARD_PROVIDER=sandbox/,
    );
    expect(createCardProvider({ PRODUCTION: true, CARD_PROVIDER: 'sandbox' }).provider.name).toBe('sandbox');
    expect(createCardProvider({ PRODUCTION: true, STRIPE_SECRET_KEY: 'sk_live_x' }).provider.name).toBe('stripe');
  });

  it('refuses malformed settings at boot', () => {
    expect(() => createCardProvider({ STRIPE_SECRET_KEY: '' })).toThrow(/STRIPE_SECRET_KEY/);
  });
});
