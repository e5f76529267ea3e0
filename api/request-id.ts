/**
 * Request ids: every request gets a UUID (platform/logger.ts newRequestId), named on each of
 * its log lines (`reqId`), stored in the metadata of the events it appends and in the jobs it
 * enqueues, and echoed in the `X-Request-Id` response header so a client or a support ticket
 * can quote it.
 *
 * An incoming `X-Request-Id` is taken only from a trusted reverse proxy (TRUST_PROXY_HOPS > 0
 * and the connection's peer in TRUST_PROXY_ADDRESSES, the same rule as X-Forwarded-For) and
 * only when it is a UUID: a proxy's id then names the request in both logs. From anyone else
 * it is ignored: a client could otherwise pick the id stored in the ledger's metadata, reuse
 * another request's, or put text into the logs.
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
    if (peer !== undefined && isProxyAddress(peer, 0) && isRequestId(header)) return header.toLowerCase();
    return newRequestId();
  };
}

/** Every reply, refusals included, says which request it answers. */
export function installRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
