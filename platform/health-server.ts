/**
 * A minimal health endpoint for processes that serve no HTTP otherwise (the worker):
 * `GET /health` answers 200 when the process's check passes within a bounded time, 503 when
 * it fails or hangs. Container healthchecks and orchestrators probe it; nothing else is
 * served, and nothing about the failure is told beyond its status.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A probe that hangs is as unhealthy as one that fails: answer before the prober gives up. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

export interface HealthServerOptions {
  port: number;
  host: string;
  /** Resolves when healthy; rejects (or outlasts HEALTH_CHECK_TIMEOUT_MS) when not. */
  check: () => Promise<void>;
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/health') return reply(response, 404, { status: 'not_found' });
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return reply(response, 405, { status: 'method_not_allowed' });
    void withinTimeout(Promise.resolve().then(options.check)).then(
      () => reply(response, 200, { status: 'ok' }),
      () => reply(response, 503, { status: 'unavailable' }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

function reply(response: ServerResponse, status: number, body: Record<string, string>): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

function withinTimeout(check: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('health check timed out')), HEALTH_CHECK_TIMEOUT_MS);
  });
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}
