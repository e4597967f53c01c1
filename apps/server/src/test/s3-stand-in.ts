import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../lib/clock.ts';

/**
 * A small S3 stand-in for tests (docs/decisions/028): path-style PUT, GET and HEAD of objects in one
 * bucket, kept in memory. Every request must carry a valid AWS Signature Version 4, in the
 * Authorization header or presigned in the query, for the stand-in's one key pair; presigned URLs
 * expire on the stand-in's clock. It is not S3: just enough of it to prove the portal's requests
 * and presigned URLs are signed right, so a real service accepts them too.
 */
export interface S3StandIn {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  objects: Map<string, { body: Buffer; contentType: string; metadata: Record<string, string> }>;
  /** every refused request: status and S3 error code */
  refusals: { status: number; code: string }[];
  close(): Promise<void>;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

/** RFC 3986 encoding, as SigV4's canonical query string wants it. */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** `20260102T030405Z` as a Date. */
function parseAmzDate(text: string | undefined): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? '');
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Signed {
  credential: string;
  signedHeaders: string;
  signature: string;
  amzDate: string;
  payloadHash: string;
  /** presigned: how long the URL works, in seconds */
  expires?: number;
}

function signatureOf(req: IncomingMessage, query: URLSearchParams): Signed {
  const auth = req.headers.authorization;
  if (auth) {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(auth);
    if (!m) throw new Refusal(400, 'AuthorizationHeaderMalformed', 'the Authorization header is malformed');
    const payloadHash = req.headers['x-amz-content-sha256'];
    if (typeof payloadHash !== 'string') throw new Refusal(400, 'InvalidRequest', 'missing x-amz-content-sha256');
    return {
      credential: m[1]!,
      signedHeaders: m[2]!,
      signature: m[3]!,
      amzDate: String(req.headers['x-amz-date'] ?? ''),
      payloadHash,
    };
  }
  if (query.get('X-Amz-Algorithm') !== ALGORITHM) throw new Refusal(403, 'AccessDenied', 'the request is not signed');
  const expires = Number(query.get('X-Amz-Expires'));
  if (!Number.isInteger(expires) || expires < 1 || expires > 604_800)
    throw new Refusal(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be 1 to 604800');
  return {
    credential: query.get('X-Amz-Credential') ?? '',
    signedHeaders: query.get('X-Amz-SignedHeaders') ?? '',
    signature: query.get('X-Amz-Signature') ?? '',
    amzDate: query.get('X-Amz-Date') ?? '',
    payloadHash: query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
    expires,
  };
}

/** Checks the request's SigV4 signature and its time; throws a Refusal naming what is wrong. */
function verify(
  req: IncomingMessage,
  body: Buffer,
  keys: { accessKeyId: string; secretAccessKey: string; region: string },
  now: Date,
) {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const rawPath = (req.url ?? '/').split('?')[0]!;
  const query = url.searchParams;
  const signed = signatureOf(req, query);
  const [accessKeyId, day, region, service, terminal] = signed.credential.split('/');
  if (accessKeyId !== keys.accessKeyId) throw new Refusal(403, 'InvalidAccessKeyId', 'unknown access key');
  if (region !== keys.region || service !== 's3' || terminal !== 'aws4_request' || !day)
    throw new Refusal(400, 'AuthorizationHeaderMalformed', 'the credential scope is wrong');
  const date = parseAmzDate(signed.amzDate);
  if (!date || !signed.amzDate.startsWith(day))
    throw new Refusal(403, 'AccessDenied', 'X-Amz-Date is missing or wrong');
  if (signed.expires === undefined) {
    if (Math.abs(now.getTime() - date.getTime()) > MAX_CLOCK_SKEW_MS)
      throw new Refusal(403, 'RequestTimeTooSkewed', 'the request time is too far from the server time');
    if (signed.payloadHash !== 'UNSIGNED-PAYLOAD' && signed.payloadHash !== sha256(body))
      throw new Refusal(400, 'XAmzContentSHA256Mismatch', 'the body does not match x-amz-content-sha256');
  } else if (now.getTime() > date.getTime() + signed.expires * 1000) {
    throw new Refusal(403, 'AccessDenied', 'Request has expired');
  }

  const names = signed.signedHeaders.split(';');
  if (!names.includes('host')) throw new Refusal(403, 'AccessDenied', 'the host header must be signed');
  const canonicalHeaders = names
    .map((name) => {
      const value = req.headers[name];
      if (value === undefined) throw new Refusal(403, 'AccessDenied', `signed header ${name} is missing`);
      return `${name}:${[value].flat().join(',').trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalQuery = [...query.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    req.method,
    rawPath,
    canonicalQuery,
    canonicalHeaders,
    signed.signedHeaders,
    signed.payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = [ALGORITHM, signed.amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = [day, region, 's3', 'aws4_request'].reduce<Buffer | string>(
    (k, part) => hmac(k, part),
    `AWS4${keys.secretAccessKey}`,
  );
  const expected = hmac(signingKey, stringToSign);
  const given = Buffer.from(signed.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new Refusal(403, 'SignatureDoesNotMatch', 'the signature does not match');
}

function errorXml(code: string, message: string) {
  return `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/** Starts the stand-in on a free loopback port. */
export async function startS3StandIn(opts: { bucket?: string; clock?: Clock } = {}): Promise<S3StandIn> {
  const bucket = opts.bucket ?? 'portal-artifacts';
  const clock = opts.clock ?? systemClock;
  const keys = {
    accessKeyId: 'STANDINACCESSKEY',
    secretAccessKey: 'stand-in-secret-access-key-0123',
    region: 'us-east-1',
  };
  const objects: S3StandIn['objects'] = new Map();
  const refusals: S3StandIn['refusals'] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    verify(req, body, keys, clock.now());
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const prefix = `/${bucket}/`;
    if (!path.startsWith(prefix)) throw new Refusal(404, 'NoSuchBucket', 'the bucket does not exist');
    const key = path.slice(prefix.length);
    const query = new URL(req.url ?? '/', 'http://stand-in').searchParams;
    if (req.method === 'PUT') {
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (name.startsWith('x-amz-meta-')) metadata[name.slice(11)] = String(value);
      objects.set(key, {
        body,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        metadata,
      });
      res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` }).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new Refusal(405, 'MethodNotAllowed', 'only GET, HEAD and PUT');
    const object = objects.get(key);
    if (!object) throw new Refusal(404, 'NoSuchKey', 'The specified key does not exist.');
    const headers: Record<string, string> = {
      'content-type': object.contentType,
      'content-length': String(object.body.length),
      etag: `"${createHash('md5').update(object.body).digest('hex')}"`,
    };
    for (const [name, value] of Object.entries(object.metadata)) headers[`x-amz-meta-${name}`] = value;
    const disposition = query.get('response-content-disposition');
    if (disposition) headers['content-disposition'] = disposition;
    const cacheControl = query.get('response-cache-control');
    if (cacheControl) headers['cache-control'] = cacheControl;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : object.body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        const refusal = err instanceof Refusal ? err : new Refusal(500, 'InternalError', String(err));
        refusals.push({ status: refusal.status, code: refusal.code });
        res.writeHead(refusal.status, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : errorXml(refusal.code, refusal.message));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    ...keys,
    objects,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
