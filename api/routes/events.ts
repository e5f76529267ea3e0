/**
 * GET /api/users/events: the signed-in user's live updates as server-sent events
 * (contracts/live.ts), authorised by the Authorization header like every other call (the web
 * app reads it with fetch streaming; a token never goes in a URL). Opening the stream is one
 * request for the rate limiter; what flows on it afterwards is not counted. Refused with the
 * envelope: 401 without a session, 429 `too_many_streams` past the per-user cap (with a
 * Retry-After), 503 while the process has no live feed or is stopping.
 *
 * A stream lives no longer than the token it was opened with (its `exp` goes with it: the hub
 * ends it at the first heartbeat after, and nothing is written to it after). A client that
 * left while its request was being authorised leaves nothing behind: its close was heard by no
 * one, so the hub refuses a stream whose socket is already gone, and the close listener is
 * attached before the stream joins.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { boundedText } from '../../contracts/fields.ts';
import { LIVE_EVENTS_PATH } from '../../contracts/live.ts';
import { isCheckpointToken, parseCheckpoint, type Checkpoint } from '../../projections/index.ts';
import { requireSession } from '../auth/authenticate.ts';
import { fileReply, routeDocs } from '../docs.ts';
import { ApiError } from '../errors.ts';
import type { LiveHub } from '../live/hub.ts';
import { createLiveStream } from '../live/stream.ts';

const DOCS = routeDocs({
  summary: 'Live updates (server-sent events)',
  description:
    'text/event-stream: `balance`, `money-received`, `request`, `deposit`; for admins also `admin-users`, `admin-deposits`, `replay`, and `projections` (the status of every projection, every 5 s). Each event id is a checkpoint: send it back as `Last-Event-ID` to resume. A comment every 15 s keeps the connection alive.',
  headers: z.object({
    'last-event-id': boundedText({ max: 60 }).optional().meta({
      description:
        'The id of the last event received: the stream resumes after it (an id that is not one of ours gets `reset`)',
    }),
  }),
  replies: { 200: fileReply('text/event-stream', 'The stream of events') },
  errors: [429, 503],
});

/**
 * Retry-After of the 429 `too_many_streams`: a place frees when one of the user's other tabs
 * closes, which no one can say, and each attempt spends the user's request budget (100 per 15
 * minutes). A minute: a tab past the cap costs about 15 requests per window, and gets its
 * stream within a minute or so of another tab closing.
 */
export const TOO_MANY_STREAMS_RETRY_AFTER_SECONDS = 60;

export function registerEventRoutes(app: FastifyInstance, hub: LiveHub | undefined): void {
  app.get(LIVE_EVENTS_PATH, { preValidation: app.authenticate, ...DOCS }, async (request, reply) => {
    const { user, expiresAt } = await requireSession(request);
    if (!hub) throw new ApiError('not_ready', 'Live updates are not available');
    if (!hub.canOpen(user.id)) {
      void reply.header('retry-after', String(TOO_MANY_STREAMS_RETRY_AFTER_SECONDS));
      throw new ApiError('rate_limited', 'Too many open live update streams', { publicCode: 'too_many_streams' });
    }
    const stream = createLiveStream(
      openEventStream(reply),
      {
        userId: user.id,
        isAdmin: user.isAdmin,
        sessionVersion: user.sessionVersion,
        expiresAt: expiresAt.getTime(),
      },
      resumePoint(request.headers['last-event-id']),
    );
    // Listening first, then joining (synchronously): a close after this point is heard, and
    // one before it (during the authorisation) has left the socket destroyed, which hub.add
    // checks and refuses.
    reply.raw.once('close', () => hub.remove(stream));
    hub.add(stream);
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

/**
 * Where the stream resumes: after the client's `Last-Event-ID`, or from now without one. An id
 * that is no checkpoint token - not `<tx_id>.<position>`, or a component above 2^63-1, which
 * isCheckpointToken refuses so it never reaches Postgres - gets `reset` (refetch everything),
 * as a resume too far back does, rather than a 400: the id is the browser's echo of one we
 * sent, so a bad one means the client's position is unknown, and `reset` is the answer that
 * brings it back in step. A 400 would leave a client that keeps its Last-Event-ID across
 * retries (EventSource does, and so does ours) retrying the same refused request forever, each
 * attempt spending the user's request budget, with no live updates; ignoring the id (as
 * before) would start it from now, silently missing whatever happened in between.
 */
function resumePoint(header: string | string[] | undefined): Checkpoint | 'reset' | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  return isCheckpointToken(value) ? parseCheckpoint(value) : 'reset';
}
