/**
 * Serves the built web app (web/dist) from the API server: hashed assets with a long
 * immutable cache, index.html never cached, and the SPA fallback - every GET that is not
 * a file and not under /api or /auth answers index.html so client routes (/dashboard,
 * /user/:accountNumber, ...) survive a reload. Unknown /api and /auth paths fall through
 * to the app's own not-found handler (the JSON envelope), and so do missing files: a tab
 * opened before a deploy asks for the old build's hashed chunks, and index.html served as
 * JavaScript would fail with a MIME error the app cannot tell apart from a bug; a 404 makes
 * the lazy import fail cleanly, and the app's error page offers the reload.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface WebAppOptions {
  /** Absolute path of the Vite build output (web/dist). */
  distDir: string;
}

const API_PREFIXES = ['/api/', '/auth/'] as const;

/**
 * Whether the fallback matched an API path: judged on the path the router matched and decoded
 * (the wildcard), not the raw URL, so `/%61pi/unknown` is an unknown API route (404 envelope).
 */
function isApiPath(request: FastifyRequest): boolean {
  const path = matchedPath(request);
  return path === '/api' || path === '/auth' || API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

function matchedPath(request: FastifyRequest): string {
  const params = request.params as { '*'?: unknown } | undefined;
  return `/${typeof params?.['*'] === 'string' ? params['*'] : ''}`;
}

/**
 * A file the build does not have (existing files are served before the fallback): anything
 * under /assets/, or a last segment with an extension - client routes have none (ids are UUIDs).
 */
function isMissingFile(request: FastifyRequest): boolean {
  const path = matchedPath(request);
  return path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/') + 1));
}

export async function registerWebApp(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  const indexFile = join(options.distDir, 'index.html');
  if (!existsSync(indexFile)) {
    // Without a build the API still works; the page says how to build the app.
    app.log.warn({ distDir: options.distDir }, 'web app not built: run npm run build:web');
    app.get('/*', async (request: FastifyRequest, reply: FastifyReply) => {
      if (isApiPath(request)) return reply.callNotFound();
      return reply
        .code(503)
        .type('text/html')
        .send(
          '<!doctype html><title>Wallet</title><p>The web app is not built yet. Run <code>npm run build:web</code>.</p>',
        );
    });
    return;
  }
  await app.register(fastifyStatic, {
    root: options.distDir,
    prefix: '/',
    wildcard: false,
    index: false,
    setHeaders: (response, filePath) => {
      const immutable = filePath.includes(`${join(options.distDir, 'assets')}`);
      response.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isApiPath(request) || isMissingFile(request)) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
