import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../lib/clock.ts';

/**
 * A small S3 stand-in for tests (docs/decisions/028, 059): path-style PUT, GET and HEAD of objects in
 * one bucket, multipart uploads and HEAD of the bucket, kept in memory. Every request must carry a
 * valid AWS Signature Version 4, in the Authorization header or presigned in the query, for the
 * stand-in's one key pair; presigned URLs expire on the stand-in's clock. It is not S3: just enough
 * of it to prove the portal's requests and presigned URLs are signed right, so a real service
 * accepts them too, and to fail the ways storage fails (setOutage).
 */
export interface S3StandIn {
  /** where the portal's own calls must go (an address customers cannot reach, with `publicName`) */
  endpoint: string;
  /**
   * where presigned URLs must point: `http://<publicName>:<port>` with `publicName`, else the
   * endpoint. With a public name, a presigned URL that names the endpoint is refused, and so is a
   * call signed in its headers that arrives by the public name.
   */
  publicEndpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  objects: Map<string, { body: Buffer; contentType: string; metadata: Record<string, string> }>;
  /** every refused request: status and S3 error code */
  refusals: { status: number; code: string }[];
  /**
   * Fails as storage does until called again without one: `refuse` stops listening (connections are
   * refused), `hang` reads each request and never answers, `error` answers 500 InternalError.
   */
  setOutage(outage: Outage | undefined): Promise<void>;
  /** Answers the next `count` requests with 500 InternalError, as a service failing for a moment does. */
  failNext(count: number): void;
  /** the keys whose objects came whole from a multipart upload, in order */
  multipartKeys: string[];
  close(): Promise<void>;
}

export type Outage = 'refuse' | 'hang' | 'error';

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

/**
 * Checks the request's SigV4 signature and its time; throws a Refusal naming what is wrong. With
 * `hosts`, a presigned URL (a customer's browser) must arrive by the public name and a call signed
 * in its headers (the portal) by the internal one, as when the internal name resolves only inside.
 */
function verify(
  req: IncomingMessage,
  body: Buffer,
  keys: { accessKeyId: string; secretAccessKey: string; region: string },
  now: Date,
  hosts?: { internal: string; public: string },
) {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const rawPath = (req.url ?? '/').split('?')[0]!;
  const query = url.searchParams;
  const signed = signatureOf(req, query);
  if (hosts) {
    const wanted = signed.expires === undefined ? hosts.internal : hosts.public;
    if (req.headers.host !== wanted)
      throw new Refusal(403, 'AccessDenied', `${req.headers.host} is not reachable this way; use ${wanted}`);
  }
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

const xml = (root: string, fields: Record<string, string>) =>
  `<?xml version="1.0" encoding="UTF-8"?><${root}>${Object.entries(fields)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('')}</${root}>`;

const etagOf = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`;

/** The x-amz-meta-* headers of a request, without their prefix. */
function metadataOf(req: IncomingMessage): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (name.startsWith('x-amz-meta-')) metadata[name.slice(11)] = String(value);
  return metadata;
}

/** The parts a CompleteMultipartUpload body lists, in its order. */
function listedParts(body: Buffer): { partNumber: number; etag: string }[] {
  return [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, part]) => ({
    partNumber: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(part ?? '')?.[1]),
    etag: (/<ETag>([^<]*)<\/ETag>/.exec(part ?? '')?.[1] ?? '').replaceAll('&quot;', '"'),
  }));
}

/** Starts the stand-in on a free loopback port; `publicName` (e.g. localhost) is the name presigned URLs must use. */
export async function startS3StandIn(
  opts: { bucket?: string; clock?: Clock; publicName?: string } = {},
): Promise<S3StandIn> {
  const bucket = opts.bucket ?? 'portal-artifacts';
  const clock = opts.clock ?? systemClock;
  const keys = {
    accessKeyId: 'STANDINACCESSKEY',
    secretAccessKey: 'stand-in-secret-access-key-0123',
    region: 'us-east-1',
  };
  const objects: S3StandIn['objects'] = new Map();
  const uploads = new Map<
    string,
    { key: string; contentType: string; metadata: Record<string, string>; parts: Map<number, Buffer> }
  >();
  const refusals: S3StandIn['refusals'] = [];
  let outage: Outage | undefined;
  let failuresLeft = 0;
  const multipartKeys: string[] = [];
  let hosts: { internal: string; public: string } | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    if (outage === 'error' || failuresLeft > 0) {
      failuresLeft = Math.max(0, failuresLeft - 1);
      throw new Refusal(500, 'InternalError', 'We encountered an internal error. Please try again.');
    }
    verify(req, body, keys, clock.now(), hosts);
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const query = new URL(req.url ?? '/', 'http://stand-in').searchParams;
    if ((path === `/${bucket}` || path === `/${bucket}/`) && req.method === 'HEAD') {
      res.writeHead(200, { 'x-amz-bucket-region': keys.region }).end();
      return;
    }
    const prefix = `/${bucket}/`;
    if (!path.startsWith(prefix)) throw new Refusal(404, 'NoSuchBucket', 'the bucket does not exist');
    const key = path.slice(prefix.length);
    const uploadId = query.get('uploadId');
    if (req.method === 'POST' && query.has('uploads')) {
      const id = randomUUID();
      uploads.set(id, {
        key,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        metadata: metadataOf(req),
        parts: new Map(),
      });
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(xml('InitiateMultipartUploadResult', { Bucket: bucket, Key: key, UploadId: id }));
      return;
    }
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== key) throw new Refusal(404, 'NoSuchUpload', 'The specified upload does not exist.');
      if (req.method === 'PUT') {
        const partNumber = Number(query.get('partNumber'));
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000)
          throw new Refusal(400, 'InvalidArgument', 'partNumber must be 1 to 10000');
        upload.parts.set(partNumber, body);
        res.writeHead(200, { etag: etagOf(body) }).end();
        return;
      }
      if (req.method === 'DELETE') {
        uploads.delete(uploadId);
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'POST') {
        const listed = listedParts(body);
        const ascending = listed.every((p, i) => i === 0 || p.partNumber > listed[i - 1]!.partNumber);
        if (listed.length === 0 || !ascending) throw new Refusal(400, 'InvalidPartOrder', 'parts must be in order');
        const chunks = listed.map(({ partNumber, etag }) => {
          const part = upload.parts.get(partNumber);
          if (!part || etagOf(part) !== etag)
            throw new Refusal(400, 'InvalidPart', `part ${partNumber} is not as uploaded`);
          return part;
        });
        const whole = Buffer.concat(chunks);
        objects.set(key, { body: whole, contentType: upload.contentType, metadata: upload.metadata });
        multipartKeys.push(key);
        uploads.delete(uploadId);
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(xml('CompleteMultipartUploadResult', { Bucket: bucket, Key: key, ETag: `"${listed.length}-parts"` }));
        return;
      }
    }
    if (req.method === 'PUT') {
      objects.set(key, {
        body,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        metadata: metadataOf(req),
      });
      res.writeHead(200, { etag: etagOf(body) }).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new Refusal(405, 'MethodNotAllowed', 'only GET, HEAD, PUT and multipart uploads');
    const object = objects.get(key);
    if (!object) throw new Refusal(404, 'NoSuchKey', 'The specified key does not exist.');
    const headers: Record<string, string> = {
      'content-type': object.contentType,
      'content-length': String(object.body.length),
      etag: etagOf(object.body),
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
      // A service that took the request and never answers: the socket stays open until the outage ends.
      if (outage === 'hang') return;
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        const refusal = err instanceof Refusal ? err : new Refusal(500, 'InternalError', String(err));
        refusals.push({ status: refusal.status, code: refusal.code });
        res.writeHead(refusal.status, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : errorXml(refusal.code, refusal.message));
      });
    });
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  if (opts.publicName) hosts = { internal: `127.0.0.1:${port}`, public: `${opts.publicName}:${port}` };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    publicEndpoint: opts.publicName ? `http://${opts.publicName}:${port}` : endpoint,
    bucket,
    ...keys,
    objects,
    refusals,
    multipartKeys,
    failNext(count) {
      failuresLeft = count;
    },
    async setOutage(next) {
      if (next === outage) return;
      const wasRefusing = outage === 'refuse';
      outage = next;
      // Connections kept alive (and requests left hanging) end with the outage's start and end.
      if (next === 'refuse') await stopListening();
      else if (wasRefusing) await listen(port);
      else server.closeAllConnections();
    },
    close: async () => {
      if (outage !== 'refuse') await stopListening();
    },
  };
}
