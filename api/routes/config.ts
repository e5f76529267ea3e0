/**
 * GET /api/config: what the web app needs to know about this deployment before sign-in
 * (e.g. whether to offer Google sign-in). Public; nothing secret belongs here.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../envelope.ts';

export interface PublicAppConfig {
  googleSignIn: boolean;
  cardProvider: 'stripe' | 'sandbox';
  stripePublishableKey?: string;
}

export function registerConfigRoutes(app: FastifyInstance, config: PublicAppConfig): void {
  app.get('/api/config', async (_request, reply) => ok(reply, 'ok', config));
}
