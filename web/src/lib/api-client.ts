/**
 * The HTTP client: JSON envelopes `{success, message, code?, data?}` from the same origin,
 * the bearer token when one is stored, an optional Idempotency-Key. No UI side effects:
 * callers decide what to show. Every reply is returned as an envelope, errors included;
 * only a missing or unreadable reply throws (NetworkError), which callers map to the
 * spec's "check your connection" messages. Reads (apiData) hold back while the server's rate
 * limit is known to refuse them (lib/rate-limit.ts), and a refused read notes its Retry-After.
 */
import type { Envelope } from '../../../contracts/envelope.ts';
import { latestCheckpoint, rememberCheckpoint } from './checkpoint.ts';
import { noteRateLimited, parseRetryAfter, waitOutRateLimit } from './rate-limit.ts';
import { readToken } from './token.ts';

export type { Envelope };

export class NetworkError extends Error {
  override name = 'NetworkError';
}

/** A failed envelope as a thrown error, for query functions (react-query error state). */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: string | undefined;
  readonly status: number;
  /** Seconds from the reply's Retry-After header (429, 503), when it had one. */
  readonly retryAfter: number | undefined;
  constructor(message: string, code: string | undefined, status: number, retryAfter?: number) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  query?: Record<string, string | undefined>;
  idempotencyKey?: string;
  /** RFC 7240 preferences, e.g. `respond-async` (a long command answered at once, its result sent later). */
  prefer?: string;
  /** Add `minPosition=<latest checkpoint>` to the query string (read-your-writes). */
  readYourWrites?: boolean;
  signal?: AbortSignal;
}

export interface ApiReply<Data> extends Envelope<Data> {
  status: number;
  /** Seconds from the Retry-After header, when the reply had one. */
  retryAfter?: number;
}

function buildUrl(path: string, options: RequestOptions): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) params.set(key, value);
  const checkpoint = options.readYourWrites ? latestCheckpoint() : null;
  if (checkpoint) params.set('minPosition', checkpoint);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as { success?: unknown }).success === 'boolean';
}

export async function apiRequest<Data = unknown>(path: string, options: RequestOptions = {}): Promise<ApiReply<Data>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = readToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  if (options.prefer) headers.prefer = options.prefer;
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  if (method === 'POST') headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options), {
      method,
      headers,
      credentials: 'include',
      body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
      signal: options.signal,
    });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : 'Network error');
  }
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    throw new NetworkError(`Unreadable reply (HTTP ${response.status})`);
  }
  if (!isEnvelope(payload)) throw new NetworkError(`Unexpected reply (HTTP ${response.status})`);
  const data = payload.data as { checkpoint?: unknown } | undefined;
  if (payload.success && data && typeof data === 'object') rememberCheckpoint(data.checkpoint);
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  return {
    ...(payload as Envelope<Data>),
    status: response.status,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  };
}

/** For queries: the data of a successful envelope, or a thrown ApiError with the server's message. */
export async function apiData<Data>(
  path: string,
  options: RequestOptions & { fallbackMessage: string },
): Promise<Data> {
  await waitOutRateLimit(options.signal);
  const reply = await apiRequest<Data>(path, options);
  if (reply.status === 429 && reply.code === 'rate_limited') noteRateLimited(reply.retryAfter);
  if (!reply.success)
    throw new ApiError(reply.message || options.fallbackMessage, reply.code, reply.status, reply.retryAfter);
  return reply.data as Data;
}
