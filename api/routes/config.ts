/**
 * GET /api/config: what the web app needs to know about this deployment before sign-in
 * (e.g. whether to offer Google sign-in). Public; nothing secret belongs here.
 */
import type { FastifyInstance } from 'fastify';
import { publicAppConfigSchema, type PublicAppConfig } from '../../contracts/system.ts';
import { routeDocs, withData } from '../docs.ts';
import { ok } from '../envelope.ts';

export type { PublicAppConfig };

export function registerConfigRoutes(app: FastifyInstance, config: PublicAppConfig): void {
  const docs = routeDocs({
    summary: 'What the web app needs to know before sign-in',
    replies: { 200: withData(publicAppConfigSchema, 'The deployment') },
  });
  app.get('/api/config', docs, async (_request, reply) => ok(reply, 'ok', config));
}
