/**
 * Request ids: every request gets a UUID (platform/logger.ts newRequestId), named on each of
 * its log lines (`reqId`), stored in the metadata of the events it appends and in the jobs it
 * enqueues, and echoed in the `X-Request-Id` response header so a client or a support ticket
 * can quote it.
 *
 * An incoming `X-Request-Id` is taken only from a trusted reverse proxy (TRUST_PROXY_HOPS > 0
 * and the connection's peer in TRUST_PROXY_ADDRESSES, the same rule as X-Forwarded-For) and
 * only when it is a UUID, or 32 hex digits (nginx's `$request_id`, which the balancer of
 * deploy/balancer/ sets on every request it forwards), taken as the UUID those digits spell:
 * a proxy's id then names the request in both logs (the balancer's without the dashes), and
 * every id the app stores has the one shape. From anyone else it is ignored: a client could
 * otherwise pick the id stored in the ledger's metadata, reuse another request's, or put text
 * into the logs. (The balancer overwrites a client's X-Request-Id with its own.)
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';
import { isRequestId, newRequestId } from '../platform/logger.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Fastify's `genReqId`. */
export function requestIdGenerator(proxies: TrustedProxies | undefined): (request: IncomingMessage) => string {
  if (!proxies || proxies.hops === 0) return () => newRequestId();
  const isProxyAddress = proxyAddr.compile([...proxies.addresses]);
  return (request) => {
    const peer = request.socket.remoteAddress;
    const header = request.headers[REQUEST_ID_HEADER];
    if (peer === undefined || !isProxyAddress(peer, 0)) return newRequestId();
    return proxyRequestId(header) ?? newRequestId();
  };
}

const NGINX_REQUEST_ID = /^[0-9a-f]{32}$/i;

/** A trusted proxy's X-Request-Id as a UUID (lower case), or undefined when it is neither form. */
export function proxyRequestId(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const value: unknown = header;
  if (isRequestId(value)) return value.toLowerCase();
  if (!NGINX_REQUEST_ID.test(header)) return undefined;
  const hex = header.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Every reply, refusals included, says which request it answers. */
export function installRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
