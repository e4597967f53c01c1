import { pgErrorCode } from '../db/client.ts';

/**
 * What the logs (and error reports) may say about a failed query: its SQL state and which kind of
 * statement on which table, never the query's parameters. A drizzle error's message and its
 * `params` carry every value of the statement (an email, a password hash, a profile), and the
 * driver's error can quote a value in its detail, so neither is logged (issue 14, finding 7).
 */
export interface SafeDatabaseError {
  type: 'DatabaseError';
  /** the PostgreSQL SQLSTATE, e.g. 23505; absent when the driver failed before the server answered */
  sqlState?: string;
  /** e.g. `insert users`: the statement's verb and first table, no values */
  statement?: string;
  message: string;
}

/** Whether an error (or one it wraps) is a failed database query. */
export function isDatabaseError(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const any = e as { name?: unknown; query?: unknown; params?: unknown; message?: unknown };
    if (any.name === 'DrizzleQueryError' || (typeof any.query === 'string' && Array.isArray(any.params))) return true;
    if (typeof any.message === 'string' && any.message.startsWith('Failed query:')) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return pgErrorCode(err) !== undefined;
}

/** `insert into "users" (...)` -> `insert users`: what the statement does, to which table. */
export function statementName(query: string): string | undefined {
  const verb = /^\s*(select|insert|update|delete|with)\b/i.exec(query)?.[1]?.toLowerCase();
  if (!verb) return undefined;
  const table = /\b(?:from|into|update)\s+"?([a-z_][a-z0-9_]*)"?/i.exec(query)?.[1];
  return table ? `${verb} ${table}` : verb;
}

function queryOf(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const query = (e as { query?: unknown }).query;
    if (typeof query === 'string') return query;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function safeDatabaseError(err: unknown): SafeDatabaseError {
  const sqlState = pgErrorCode(err);
  const query = queryOf(err);
  const statement = query ? statementName(query) : undefined;
  return {
    type: 'DatabaseError',
    ...(sqlState ? { sqlState } : {}),
    ...(statement ? { statement } : {}),
    message: `database error${sqlState ? ` ${sqlState}` : ''}${statement ? ` in ${statement}` : ''}`,
  };
}

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/**
 * pino's `err` serializer: a database error as SafeDatabaseError (no stack: its first line is the
 * message, parameters and all), any other error as usual.
 */
export function errSerializer(err: unknown): SerializedError {
  if (isDatabaseError(err)) return { ...safeDatabaseError(err), stack: '' };
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  const code = (err as { code?: unknown }).code;
  return { type: err.name, message: err.message, stack: err.stack ?? '', ...(code !== undefined ? { code } : {}) };
}

/** The fields of a request a log line may carry; the request's headers never among them. */
export interface LoggedRequest {
  [key: string]: unknown;
  method: string;
  /** the path only: a query string can carry a token (a reset link's, an event stream's ticket) */
  url: string;
  host?: string;
  remoteAddress?: string;
  remotePort?: number;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * pino's `req` serializer, for Fastify's requests and for the plain objects a log call passes: the
 * fields above and nothing else. Headers (a token, a cookie, the CSRF token) cannot reach a log
 * line through `req`, which is why the logger needs no redaction pass (that cost 2-4 µs a line).
 */
export function reqSerializer(req: unknown): LoggedRequest {
  const r = (req ?? {}) as Record<string, unknown>;
  const url = text(r.url) ?? '';
  const q = url.indexOf('?');
  const socket = r.socket as { remotePort?: unknown } | undefined;
  const port = socket?.remotePort ?? r.remotePort;
  const out: LoggedRequest = { method: text(r.method) ?? '', url: q === -1 ? url : url.slice(0, q) };
  const host = text(r.host);
  if (host !== undefined) out.host = host;
  const address = text(r.ip) ?? text(r.remoteAddress);
  if (address !== undefined) out.remoteAddress = address;
  if (typeof port === 'number') out.remotePort = port;
  return out;
}

/** pino's `res` serializer: the status code, never the answer's headers. */
export function resSerializer(res: unknown): { [key: string]: unknown; statusCode?: number } {
  const code = (res as { statusCode?: unknown } | null | undefined)?.statusCode;
  return typeof code === 'number' ? { statusCode: code } : {};
}
