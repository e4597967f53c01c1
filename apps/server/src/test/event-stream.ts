import { request } from 'node:http';
import { type StreamMessage, streamMessage } from '@portal/contract';

/**
 * A live event stream read over real HTTP, as EventSource reads it: for the server tests of the
 * event transport (Fastify's inject waits for an answer to end, and a stream does not).
 */
export interface TestStream {
  status: number;
  /** the answer of a refused stream (the contract's error object) */
  body: string;
  /** every message so far, in order */
  messages: StreamMessage[];
  /** heartbeat comments so far */
  heartbeats: number;
  /** resolves at the next heartbeat comment */
  nextHeartbeat(): Promise<void>;
  /** the first message, received or to come, that matches */
  waitFor(match: (m: StreamMessage) => boolean): Promise<StreamMessage>;
  /** resolves when the server ends the stream */
  ended: Promise<void>;
  close(): void;
}

export function openStream(url: string): Promise<TestStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      const messages: StreamMessage[] = [];
      const waiters: { match: (m: StreamMessage) => boolean; resolve: (m: StreamMessage) => void }[] = [];
      let beats: (() => void)[] = [];
      let buffer = '';
      let body = '';
      let endStream!: () => void;
      const ended = new Promise<void>((r) => {
        endStream = r;
      });
      const stream: TestStream = {
        status: res.statusCode ?? 0,
        get body() {
          return body;
        },
        messages,
        heartbeats: 0,
        nextHeartbeat: () => new Promise((r) => beats.push(r)),
        waitFor(match) {
          const found = messages.find(match);
          if (found) return Promise.resolve(found);
          return new Promise((r) => waiters.push({ match, resolve: r }));
        },
        ended,
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (stream.status !== 200) {
          body += chunk;
          return;
        }
        buffer += chunk;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
          if (frame.startsWith(':')) {
            stream.heartbeats += 1;
            for (const beat of beats) beat();
            beats = [];
            continue;
          }
          const data = frame
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          const message = streamMessage.parse(JSON.parse(data));
          messages.push(message);
          for (const w of waiters.filter((w) => w.match(message))) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(message);
          }
        }
      });
      res.on('end', endStream);
      res.on('close', endStream);
      res.on('error', endStream);
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}
