// Load from autocannon, bounded in time (and so in count), on loopback only.
import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** answers that were not 2xx, by status */
  statuses: Record<string, number>;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationS: number;
}

export async function load(opts: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1[:/]/.test(opts.url)) throw new Error(`loopback only: ${opts.url}`);
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...opts.headers },
    ...(opts.body === undefined ? {} : { body: opts.body }),
    connections: opts.connections,
    duration: opts.durationS,
    // a slow answer is a figure, not an error, up to this
    timeout: 30,
  });
  if (process.env.BENCH_DEBUG)
    console.log(
      JSON.stringify({
        url: opts.url,
        requests: result.requests,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        statusCodeStats: result.statusCodeStats,
      }),
    );
  const statuses: Record<string, number> = {};
  for (const [code, n] of Object.entries(result.statusCodeStats ?? {}))
    if (!code.startsWith('2')) statuses[code] = (n as { count: number }).count;
  const requests = result.requests.total;
  return {
    requests,
    rps: requests / opts.durationS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
  };
}

/** Runs several loads at once; the answers in the same order. */
export const together = (loads: LoadOptions[]): Promise<LoadResult[]> => Promise.all(loads.map(load));
