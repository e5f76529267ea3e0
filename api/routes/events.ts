/**
 * GET /api/users/events: the signed-in user's live updates as server-sent events
 * (contracts/live.ts), authorised by the Authorization header like every other call (the web
 * app reads it with fetch streaming; a token never goes in a URL). Opening the stream is one
 * request for the rate limiter; what flows on it afterwards is not counted. Refused with the
 * envelope: 401 without a session, 429 `too_many_streams` past the per-user cap, 503 while the
 * process has no live feed or is stopping.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { boundedText } from '../../contracts/fields.ts';
import { LIVE_EVENTS_PATH } from '../../contracts/live.ts';
import { isCheckpointToken, parseCheckpoint, type Checkpoint } from '../../projections/index.ts';
import { requireUser } from '../auth/authenticate.ts';
import { fileReply, routeDocs } from '../docs.ts';
import { ApiError } from '../errors.ts';
import type { LiveHub } from '../live/hub.ts';
import { createLiveStream } from '../live/stream.ts';

const DOCS = routeDocs({
  summary: 'Live updates (server-sent events)',
  description:
    'text/event-stream: `balance`, `money-received`, `request`, `deposit`; for admins also `admin-users`, `admin-deposits`, `replay`, and `projections` (the status of every projection, every 5 s). Each event id is a checkpoint: send it back as `Last-Event-ID` to resume. A comment every 15 s keeps the connection alive.',
  headers: z.object({
    'last-event-id': boundedText({ max: 60 })
      .optional()
      .meta({ description: 'The id of the last event received: the stream resumes after it' }),
  }),
  replies: { 200: fileReply('text/event-stream', 'The stream of events') },
  errors: [429, 503],
});

export function registerEventRoutes(app: FastifyInstance, hub: LiveHub | undefined): void {
  app.get(LIVE_EVENTS_PATH, { preValidation: app.authenticate, ...DOCS }, async (request, reply) => {
    const user = await requireUser(request);
    if (!hub) throw new ApiError('not_ready', 'Live updates are not available');
    if (!hub.canOpen(user.id))
      throw new ApiError('rate_limited', 'Too many open live update streams', { publicCode: 'too_many_streams' });
    const stream = createLiveStream(
      openEventStream(reply),
      { userId: user.id, isAdmin: user.isAdmin, sessionVersion: user.sessionVersion },
      resumePoint(request.headers['last-event-id']),
    );
    hub.add(stream);
    reply.raw.on('close', () => hub.remove(stream));
  });
}

/** Takes the response over from Fastify and sets the stream's headers (those set so far included). */
function openEventStream(reply: FastifyReply): FastifyReply['raw'] {
  reply.hijack();
  const raw = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) raw.setHeader(name, typeof value === 'number' ? String(value) : value);
  raw.statusCode = 200;
  raw.setHeader('content-type', 'text/event-stream; charset=utf-8');
  raw.setHeader('cache-control', 'no-cache, no-transform');
  // nginx (deploy/balancer) and other proxies must pass each event on at once.
  raw.setHeader('x-accel-buffering', 'no');
  // Not sent yet: the hub's first write (once the stream has joined) sends the head.
  return raw;
}

function resumePoint(header: string | string[] | undefined): Checkpoint | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value && isCheckpointToken(value) ? parseCheckpoint(value) : undefined;
}
