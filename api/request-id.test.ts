/**
 * Request ids (api/request-id.ts): always a UUID, echoed in X-Request-Id; an incoming
 * X-Request-Id is kept only from a trusted proxy and only when it is a UUID.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installRequestIdHeader, requestIdGenerator } from './request-id.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PROXY_ID = '6f1c2a5e-8d3b-4c7a-9e21-0b5d4f3a2c10';
let app: FastifyInstance | undefined;

/** An app whose one route answers with the id the request got (inject connects from 127.0.0.1). */
async function appBehind(proxies: TrustedProxies | undefined): Promise<FastifyInstance> {
  app = Fastify({ genReqId: requestIdGenerator(proxies) });
  installRequestIdHeader(app);
  app.get('/id', async (request) => ({ id: request.id }));
  await app.ready();
  return app;
}

async function idFor(server: FastifyInstance, header?: string): Promise<{ id: string; echoed: unknown }> {
  const reply = await server.inject({ url: '/id', headers: header ? { 'x-request-id': header } : {} });
  return { id: (reply.json() as { id: string }).id, echoed: reply.headers['x-request-id'] };
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('request ids', () => {
  it('are fresh UUIDs, echoed in X-Request-Id, and a client cannot choose them', async () => {
    const server = await appBehind(undefined);
    const first = await idFor(server, PROXY_ID);
    const second = await idFor(server);
    expect(first.id).toMatch(UUID);
    expect(first.id).not.toBe(PROXY_ID);
    expect(first.echoed).toBe(first.id);
    expect(second.id).not.toBe(first.id);
  });

  it('keep a trusted proxy X-Request-Id when it is a UUID, and only then', async () => {
    const server = await appBehind({ hops: 1, addresses: ['loopback'] });
    expect(await idFor(server, PROXY_ID.toUpperCase())).toEqual({ id: PROXY_ID, echoed: PROXY_ID });
    const notUuid = await idFor(server, 'req-1\n{"level":60}');
    expect(notUuid.id).toMatch(UUID);
  });

  it("take the balancer's nginx $request_id (32 hex digits) as the UUID it spells, and nothing else of that kind", async () => {
    const server = await appBehind({ hops: 1, addresses: ['loopback'] });
    // deploy/balancer/nginx.conf sets X-Request-Id to $request_id: 16 random bytes in hex.
    expect(await idFor(server, '6F1C2A5E8D3B4C7A9E210B5D4F3A2C10')).toEqual({ id: PROXY_ID, echoed: PROXY_ID });
    for (const junk of ['6f1c2a5e8d3b4c7a9e210b5d4f3a2c1', '6f1c2a5e8d3b4c7a9e210b5d4f3a2c10a', 'g'.repeat(32)])
      expect((await idFor(server, junk)).id, junk).toMatch(UUID);
    expect((await idFor(server, '6f1c2a5e8d3b4c7a9e210b5d4f3a2c1z')).id).not.toContain('6f1c2a5e');
  });

  it('ignore X-Request-Id from a peer outside TRUST_PROXY_ADDRESSES', async () => {
    const server = await appBehind({ hops: 1, addresses: ['10.0.0.0/8'] });
    expect((await idFor(server, PROXY_ID)).id).not.toBe(PROXY_ID);
  });
});
