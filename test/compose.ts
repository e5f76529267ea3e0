/**
 * Test harness for the deployment files, read without Docker (no engine on these machines):
 * docker-compose.yml parsed as YAML (merge keys resolved, as compose does), compose's
 * variable interpolation (`${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?message}`,
 * `${VAR?message}`, `$$`), .env files, and the ENV lines of the Dockerfile - so a test can
 * compute the environment a container would really start with.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const COMPOSE_FILE = `${ROOT}docker-compose.yml`;
export const ENV_EXAMPLE_FILE = `${ROOT}.env.example`;
export const DOCKERFILE = `${ROOT}Dockerfile`;

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  restart?: string;
  profiles?: string[];
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  healthcheck?: {
    test?: string[] | string;
    interval?: string;
    timeout?: string;
    retries?: number;
    start_period?: string;
  };
  depends_on?: Record<string, { condition?: string }> | string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function readComposeFile(): ComposeFile {
  return parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as ComposeFile;
}

export function service(compose: ComposeFile, name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

/** A `${...}` reference as written in the file. */
export interface VariableReference {
  name: string;
  /** '' for a bare `${VAR}`; otherwise ':-', '-', ':?' or '?'. */
  operator: '' | ':-' | '-' | ':?' | '?';
  /** The default (for :- and -) or the error message (for :? and ?). */
  argument: string;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|-|:\?|\?)([^}]*))?\}/g;

export function variableReferences(text: string): VariableReference[] {
  return [...text.replaceAll('$$', '').matchAll(REFERENCE)].map((match) => ({
    name: match[1] ?? '',
    operator: (match[2] ?? '') as VariableReference['operator'],
    argument: match[3] ?? '',
  }));
}

export class MissingMandatoryVariable extends Error {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }
}

/** Compose's interpolation of one value; an unset mandatory variable throws, as `docker compose` stops. */
export function interpolate(value: string, env: Readonly<Record<string, string | undefined>>): string {
  const parts = value.split('$$');
  return parts
    .map((part) =>
      part.replace(REFERENCE, (_match, name: string, operator: string | undefined, argument: string | undefined) =>
        resolveReference(name, operator ?? '', argument ?? '', env),
      ),
    )
    .join('$');
}

function resolveReference(
  name: string,
  operator: string,
  argument: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const value = env[name];
  const unsetOrEmpty = value === undefined || value === '';
  switch (operator) {
    case '':
      return value ?? '';
    case ':-':
      return unsetOrEmpty ? argument : value;
    case '-':
      return value === undefined ? argument : value;
    case ':?':
      if (unsetOrEmpty) throw new MissingMandatoryVariable(name, argument);
      return value;
    case '?':
      if (value === undefined) throw new MissingMandatoryVariable(name, argument);
      return value;
    default:
      throw new Error(`unsupported interpolation operator ${operator} for ${name}`);
  }
}

/** The ENV lines of the Dockerfile: what every container starts with before compose's environment. */
export function imageEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(DOCKERFILE, 'utf8').split('\n')) {
    const match = /^ENV\s+([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (match?.[1]) env[match[1]] = match[2] ?? '';
  }
  return env;
}

/** The environment a service's container would run with, given the variables of .env. */
export function containerEnvironment(
  compose: ComposeFile,
  name: string,
  dotEnv: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const env: Record<string, string> = { ...imageEnvironment() };
  for (const [key, raw] of Object.entries(service(compose, name).environment ?? {})) {
    env[key] = interpolate(raw === null ? '' : String(raw), dotEnv);
  }
  return env;
}

/** KEY=VALUE lines of an env file; comments and blank lines skipped. */
export function readEnvFile(path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (match?.[1]) env[match[1]] = match[2] ?? '';
  }
  return env;
}

/** .env.example with every placeholder replaced the way its comments say: a deployable .env (live Stripe key). */
export function editedDotEnv(): Record<string, string> {
  return {
    ...readEnvFile(ENV_EXAMPLE_FILE),
    POSTGRES_PASSWORD: randomBytes(32).toString('hex'),
    APP_DB_PASSWORD: randomBytes(32).toString('hex'),
    JWT_SECRET: randomBytes(48).toString('base64'),
    PIN_PEPPER: randomBytes(48).toString('base64'),
    SMTP_URL: `smtp://apikey:${randomBytes(16).toString('hex')}@smtp.provider.test:587`,
    ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
    STRIPE_SECRET_KEY: 'sk_live_0123456789abcdef',
    COLLECTION_ACCOUNT_NAME: 'Wallet Test Collections',
    COLLECTION_ACCOUNT_NUMBER: '00998877665544',
    COLLECTION_IFSC: 'TEST0000042',
    COLLECTION_UPI_ID: 'collections@testbank',
  };
}
