/**
 * buildApp: the HTTP adapter. Builds a Fastify instance from its dependencies and never
 * listens (bin/server.ts does); tests drive it with inject() or a real listener.
 */
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Ledger } from '../ledger/index.ts';
import type { JobBoss } from '../platform/jobs.ts';
import { installEnvelope, ok } from './envelope.ts';

export interface AppConfig {
  publicUrl: string;
  /** Origins allowed to call the API from a browser with credentials (exact match). */
  corsOrigins: readonly string[];
  logLevel: string;
}

export interface AppDependencies {
  config: AppConfig;
  db: Kysely<unknown>;
  boss: JobBoss;
  ledger: Ledger;
}

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.config.logLevel === 'silent' ? false : { level: deps.config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
  });
  installEnvelope(app);
  installJsonParser(app);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && deps.config.corsOrigins.includes(origin) ? origin : false),
    credentials: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['authorization', 'content-type', 'idempotency-key'],
  });

  app.get('/api/health', async (_request, reply) => {
    await sql`select 1`.execute(deps.db);
    return ok(reply, 'ok', { database: 'up' });
  });

  app.get('/', async (_request, reply) =>
    reply.type('text/html').send('<!doctype html><title>Wallet</title><h1>Wallet API</h1><p>The web app is not built yet.</p>'),
  );
  return app;
}

/**
 * The spec's session check posts `Content-Type: application/json` with no body; Fastify's
 * default parser answers that with 400, which would sign the user out. An empty body is {}.
 */
function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = Object.assign(new Error('Request body is not valid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      done(error, undefined);
    }
  });
}
