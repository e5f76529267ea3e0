/**
 * The `scale` profile's balancer (deploy/balancer/nginx.conf), checked offline (no Docker
 * engine here): its logs never carry a URL's query (the Google sign-in lands on
 * `/login?token=<JWT>`, and an OAuth callback carries its code and state), and it names each
 * request itself in X-Request-Id instead of passing on the one a client sent. `nginx -t` (Debian's
 * nginx-light, which `npm test` installs) also parses the file, the upstream's Docker name
 * replaced by loopback.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CONF_FILE = new URL('../deploy/balancer/nginx.conf', import.meta.url);
const conf = readFileSync(CONF_FILE, 'utf8');

/** One directive: its name, its arguments (quotes removed) and the blocks it sits in, outermost first. */
interface Directive {
  name: string;
  args: string[];
  context: string[];
}

/** The directives of an nginx configuration: enough of its grammar for this file (comments, quotes, blocks). */
function parseNginx(text: string): Directive[] {
  const tokens = [...text.replace(/#[^\n]*/g, '').matchAll(/'([^']*)'|"([^"]*)"|([{};])|([^\s{};'"]+)/g)].map(
    (match) => ({ word: match[1] ?? match[2] ?? match[4] ?? '', punct: match[3] }),
  );
  const directives: Directive[] = [];
  const context: string[] = [];
  let words: string[] = [];
  for (const token of tokens) {
    if (token.punct === undefined) {
      words.push(token.word);
      continue;
    }
    if (token.punct === '{') context.push(words.join(' '));
    else if (token.punct === '}') context.pop();
    else if (words[0] !== undefined) directives.push({ name: words[0], args: words.slice(1), context: [...context] });
    words = [];
  }
  return directives;
}

const directives = parseNginx(conf);
const named = (name: string) => directives.filter((directive) => directive.name === name);

/**
 * nginx variables that hold a URL's query, whole or in part: the request line, the URI as
 * sent, the arguments, a Location header (our redirects carry `?token=`), and a Referer.
 * `$request_method`, `$request_id` and `$request_time` are other variables.
 */
const QUERY_VARIABLES =
  /\$\{?(request|request_uri|args|query_string|is_args|arg_\w+|http_referer|sent_http_location|upstream_http_location)\b(?!_)/;

describe('the balancer (deploy/balancer/nginx.conf)', () => {
  it('logs requests by method and path only, never a query: its own log_format on every access_log', () => {
    // The check itself: nginx's default format is caught, a path-only one passes.
    expect('$remote_addr - $remote_user [$time_local] "$request" $status').toMatch(QUERY_VARIABLES);
    expect('"$request_method $uri $server_protocol" $request_id $request_time').not.toMatch(QUERY_VARIABLES);
    const formats = new Map(named('log_format').map(({ args: [name = '', ...parts] }) => [name, parts.join('')]));
    expect(formats.size).toBeGreaterThan(0);
    for (const [name, format] of formats) expect(format, `log_format ${name}`).not.toMatch(QUERY_VARIABLES);
    // Without an access_log of its own nginx writes `combined`, which has "$request" (the query with it).
    const accessLogs = named('access_log');
    expect(accessLogs.length).toBeGreaterThan(0);
    expect(accessLogs.some((log) => log.context.length === 1 && log.context[0] === 'http')).toBe(true);
    for (const log of accessLogs) {
      if (log.args[0] === 'off') continue;
      const format = log.args[1];
      expect(format, `access_log ${log.args.join(' ')}`).toBeDefined();
      expect(formats.has(format ?? ''), `access_log ${log.args.join(' ')} uses a format of this file`).toBe(true);
    }
    const format = [...formats.values()].join(' ');
    expect(format).toContain('$request_method');
    expect(format).toContain('$uri');
    // Failed upstream tries stay visible here (the error log below is quiet).
    expect(format).toContain('$upstream_status');
    expect(format).toContain('$request_id');
  });

  it('keeps the error log to crit and above: its lines quote the whole request line, query included', () => {
    // nginx's error lines (an upstream refused, a body too large) end with `request: "GET
    // /login?token=... HTTP/1.1"` and the upstream URL with the query: no format can change that.
    const errorLogs = named('error_log');
    expect(errorLogs.length).toBeGreaterThan(0);
    expect(errorLogs.some((log) => log.context.length === 0)).toBe(true);
    for (const log of errorLogs) expect(['crit', 'alert', 'emerg'], log.args.join(' ')).toContain(log.args[1]);
  });

  it("sets X-Request-Id itself on every proxied request (nginx's $request_id), never passing on the client's", () => {
    const proxied = [...new Set(named('proxy_pass').map((directive) => directive.context.join(' > ')))];
    expect(proxied.length).toBeGreaterThan(0);
    for (const block of proxied) {
      const headers = named('proxy_set_header').filter((directive) => directive.context.join(' > ') === block);
      const requestId = headers.filter((header) => header.args[0]?.toLowerCase() === 'x-request-id');
      expect(
        requestId.map((header) => header.args[1]),
        block,
      ).toEqual(['$request_id']);
    }
    // Nothing may copy the client's header through.
    expect(conf).not.toMatch(/\$http_x_request_id/);
  });

  it('parses as nginx reads it (nginx -t)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'balancer-conf-'));
    try {
      // The upstream's Docker service name does not resolve here.
      const file = join(dir, 'nginx.conf');
      writeFileSync(file, conf.replace(/server\s+api-scaled:3000;/, 'server 127.0.0.1:3000;'));
      const output = execFileSync('nginx', ['-t', '-p', dir, '-c', file, '-g', `pid ${join(dir, 'nginx.pid')};`], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(output).toBe('');
    } catch (error) {
      const failure = error as { stderr?: string };
      throw new Error(`nginx -t refused the file: ${failure.stderr ?? String(error)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
