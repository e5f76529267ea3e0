/**
 * A local stand-in for the part of Stripe's API the card adapter uses, so tests can run the
 * real `stripe` SDK (pointed here with host/port/protocol 'http') without a network. It
 * implements POST /v1/payment_intents (form-encoded, confirm at once), GET
 * /v1/payment_intents/:id, POST /v1/payment_intents/:id/cancel and Idempotency-Key replay, records every request, and can finish a
 * `requires_action` payment and build the matching webhook body. No stripe-mock exists for
 * this toolchain (see /work/shared/TOOLCHAIN.md), so it is ours. The adapter's, payments/'
 * and the API's card tests all use it, so it lives with the shared test support.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FormValue = string | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export interface RecordedStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  authorization: string | null;
  params: FormObject;
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'succeeded' | 'requires_action' | 'requires_payment_method' | 'processing' | 'canceled';
  client_secret: string;
  payment_method: string;
  payment_method_types: string[];
  metadata: Record<string, string>;
  next_action: { type: 'use_stripe_sdk'; use_stripe_sdk: { type: 'three_d_secure_redirect' } } | null;
  last_payment_error: { type: string; code: string; decline_code?: string; message: string } | null;
  created: number;
  livemode: false;
}

export interface FakeStripeServer {
  host: string;
  port: number;
  requests: RecordedStripeRequest[];
  paymentIntents: Map<string, FakePaymentIntent>;
  /** The browser finished (or failed) 3-D Secure: the payment moves on, as Stripe's would. */
  finishAction(paymentIntentId: string, outcome: 'succeeded' | 'failed'): FakePaymentIntent;
  /** The JSON body Stripe would POST to the webhook endpoint for this payment. */
  webhookBody(type: 'payment_intent.succeeded' | 'payment_intent.payment_failed', paymentIntentId: string): string;
  close(): Promise<void>;
}

interface CardError {
  code: string;
  decline_code?: string;
  message: string;
}

/** Behaviour by payment method, as Stripe's test payment methods behave. */
const CARD_ERRORS: Readonly<Record<string, CardError>> = {
  pm_card_chargeDeclined: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', message: 'Your card has expired.' },
  pm_card_chargeDeclinedIncorrectCvc: { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
};
const SUCCEEDING = new Set(['pm_card_visa', 'pm_card_mastercard']);
const NEEDS_ACTION = 'pm_card_authenticationRequired';
/** Not a Stripe id: makes the fake answer 500, as an outage would. */
export const FAKE_SERVER_ERROR_PAYMENT_METHOD = 'pm_fake_server_error';

interface StoredResponse {
  requestBody: string;
  status: number;
  body: unknown;
}

export async function startFakeStripeServer(): Promise<FakeStripeServer> {
  const requests: RecordedStripeRequest[] = [];
  const paymentIntents = new Map<string, FakePaymentIntent>();
  const idempotent = new Map<string, StoredResponse>();
  let sequence = 0;

  const createIntent = (params: FormObject): { status: number; body: unknown } => {
    const paymentMethod = text(params.payment_method);
    const amount = Number(text(params.amount));
    if (!Number.isSafeInteger(amount) || amount <= 0) return invalidRequest('amount', 'Invalid positive integer');
    if (paymentMethod === FAKE_SERVER_ERROR_PAYMENT_METHOD)
      return { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } } };
    const known =
      SUCCEEDING.has(paymentMethod) || paymentMethod === NEEDS_ACTION || CARD_ERRORS[paymentMethod] !== undefined;
    if (!known)
      return invalidRequest('payment_method', `No such PaymentMethod: '${paymentMethod}'`, 'resource_missing');
    const id = `pi_fake_${++sequence}_${randomBytes(4).toString('hex')}`;
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      currency: text(params.currency),
      status: 'succeeded',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      payment_method: paymentMethod,
      payment_method_types: ['card'],
      metadata: flatStrings(params.metadata),
      next_action: null,
      last_payment_error: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    paymentIntents.set(id, intent);
    const cardError = CARD_ERRORS[paymentMethod];
    if (cardError) {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { type: 'card_error', ...cardError };
      return { status: 402, body: { error: { type: 'card_error', ...cardError, payment_intent: intent } } };
    }
    if (paymentMethod === NEEDS_ACTION) {
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
    }
    return { status: 200, body: intent };
  };

  const cancelIntent = (id: string): { status: number; body: unknown } => {
    const intent = paymentIntents.get(id);
    if (!intent) return invalidRequest('intent', `No such payment_intent: '${id}'`, 'resource_missing', 404);
    if (intent.status === 'succeeded' || intent.status === 'processing' || intent.status === 'canceled') {
      return invalidRequest(
        'intent',
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        'payment_intent_unexpected_state',
      );
    }
    intent.status = 'canceled';
    intent.next_action = null;
    return { status: 200, body: intent };
  };

  const route = (method: string, path: string, params: FormObject): { status: number; body: unknown } => {
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(params);
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel?.[1]) return cancelIntent(decodeURIComponent(cancel[1]));
    const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && match?.[1]) {
      const intent = paymentIntents.get(decodeURIComponent(match[1]));
      return intent
        ? { status: 200, body: intent }
        : invalidRequest('intent', `No such payment_intent: '${match[1]}'`, 'resource_missing', 404);
    }
    return invalidRequest('path', `Unrecognized request URL (${method}: ${path})`, 'parameter_unknown', 404);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://fake-stripe');
    const rawBody = await readBody(request);
    const params = parseForm(request.method === 'GET' ? url.searchParams.toString() : rawBody);
    const idempotencyKey = header(request, 'idempotency-key');
    requests.push({
      method: request.method ?? '',
      path: url.pathname,
      idempotencyKey,
      authorization: header(request, 'authorization'),
      params,
    });
    let answer: { status: number; body: unknown };
    const stored = idempotencyKey !== null && request.method === 'POST' ? idempotent.get(idempotencyKey) : undefined;
    if (stored && stored.requestBody !== rawBody) {
      answer = {
        status: 400,
        body: {
          error: {
            type: 'idempotency_error',
            message:
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          },
        },
      };
    } else if (stored) {
      answer = { status: stored.status, body: stored.body };
      response.setHeader('Idempotent-Replayed', 'true');
    } else {
      answer = route(request.method ?? '', url.pathname, params);
      // Stripe does not store 5xx answers under the key: a retry runs the request again.
      if (idempotencyKey !== null && request.method === 'POST' && answer.status < 500) {
        idempotent.set(idempotencyKey, {
          requestBody: rawBody,
          status: answer.status,
          body: structuredClone(answer.body),
        });
      }
    }
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      'request-id': `req_fake_${requests.length}`,
    });
    response.end(JSON.stringify(answer.body));
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;

  const mustFind = (id: string): FakePaymentIntent => {
    const intent = paymentIntents.get(id);
    if (!intent) throw new Error(`fake Stripe has no payment intent ${id}`);
    return intent;
  };

  return {
    host: '127.0.0.1',
    port: address.port,
    requests,
    paymentIntents,
    finishAction: (id, outcome) => {
      const intent = mustFind(id);
      intent.next_action = null;
      if (outcome === 'succeeded') {
        intent.status = 'succeeded';
      } else {
        intent.status = 'requires_payment_method';
        intent.last_payment_error = {
          type: 'invalid_request_error',
          code: 'payment_intent_authentication_failure',
          message: 'We are unable to authenticate your payment method.',
        };
      }
      return intent;
    },
    webhookBody: (type, id) =>
      JSON.stringify({
        id: `evt_fake_${randomBytes(8).toString('hex')}`,
        object: 'event',
        api_version: '2026-10-28.endive',
        created: Math.floor(Date.now() / 1000),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: mustFind(id) },
      }),
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

function invalidRequest(
  param: string,
  message: string,
  code = 'parameter_invalid',
  status = 400,
): { status: number; body: unknown } {
  return { status, body: { error: { type: 'invalid_request_error', code, param, message } } };
}

function header(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** Stripe's form encoding: `metadata[depositId]=x` becomes `{ metadata: { depositId: 'x' } }`. */
export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: FormObject = root;
    for (const [index, part] of path.entries()) {
      if (index === path.length - 1) {
        node[part] = value;
      } else {
        const next = node[part];
        const child: FormObject = typeof next === 'object' ? next : {};
        node[part] = child;
        node = child;
      }
    }
  }
  return root;
}

function text(value: FormValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

function flatStrings(value: FormValue | undefined): Record<string, string> {
  if (typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
