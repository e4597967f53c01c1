import type { FastifyInstance } from 'fastify';

/**
 * A request header the adapter turns into the request's remote address instead of sending it:
 * tests of per-address limits call from many addresses without a network.
 */
export const REMOTE_ADDRESS_HEADER = 'x-test-remote-address';

/** Headers as a plain record (names lower-cased), as Fastify's inject and the tests read them. */
export function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/**
 * A `fetch` that answers from the app in process (Fastify's inject) with a real Response, so the
 * one action client of `@portal/client` drives the server in tests and benchmarks exactly as it
 * drives it over the network.
 */
export function injectFetch(app: FastifyInstance, defaultAddress = '127.0.0.1'): typeof fetch {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const headers = new Headers(init.headers ?? request?.headers);
    const remoteAddress = headers.get(REMOTE_ADDRESS_HEADER) ?? defaultAddress;
    headers.delete(REMOTE_ADDRESS_HEADER);
    const body = init.body ?? (request ? await request.text() : undefined);
    if (body !== undefined && body !== null && typeof body !== 'string')
      throw new TypeError('injectFetch sends string bodies only');
    const res = await app.inject({
      method: (init.method ?? request?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: headerRecord(headers),
      remoteAddress,
      ...(body ? { payload: body } : {}),
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(res.headers))
      for (const one of [value ?? []].flat()) answer.append(name, String(one));
    const empty = res.statusCode === 204 || res.statusCode === 304 || init.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: answer });
  };
}
