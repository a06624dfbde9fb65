import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake model received, as tests look at it. */
export interface Received<Body> {
  body: Body;
  headers: IncomingHttpHeaders;
  /** True once the client went away before the reply was complete (e.g. a stopped stream). */
  aborted: boolean;
}

export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** The plan for conversation titles until a test sets one. */
const TITLE_REPLY = 'Fake conversation title';

export interface FakeServerSetup<Body, Plan> {
  /** The model's endpoint (POST), e.g. /v1/chat/completions. */
  endpoint: string;
  defaultReply: Plan;
  /** What `lastRequest()` throws before any request came. */
  noRequest: string;
  /** An error in the API's own JSON shape: an unknown route, a body that is not JSON, an answer that threw. */
  errorBody(kind: 'not-found' | 'bad-request' | 'failed', message: string): unknown;
  /** Whether a request is a conversation's title call, answered and recorded apart. */
  isTitleRequest(request: Received<Body>): boolean;
  /** Whether a request is a reply's support check (decision 0044), answered and recorded apart too. */
  isSupportRequest?(request: Received<Body>): boolean;
  /** How support checks are answered until a test says otherwise; unset: as any other request. */
  supportReply?: Plan;
  /** Answers other routes than the endpoint; true when it did. */
  otherRoute?(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): boolean;
  /** Answers a recorded request; `takePlan` takes its plan (queued, default or the title one) once asked. */
  answer(res: ServerResponse, request: Received<Body>, takePlan: () => Plan | string): Promise<unknown>;
}

/**
 * The HTTP side the fake model servers share: a loopback server that records every request to `endpoint` and
 * answers it from a queue of plans, then a default one. Conversations are named by a call of their own in the
 * background (decision 0014): it is answered and recorded apart, so it neither takes a queued reply nor becomes
 * the `lastRequest` a test looks at. So is a reply's support check (decision 0044), which follows it the same way.
 */
export async function startFakeServer<Body, Plan>(setup: FakeServerSetup<Body, Plan>) {
  const requests: Received<Body>[] = [];
  const titleRequests: Received<Body>[] = [];
  const queue: Plan[] = [];
  let defaultReply = setup.defaultReply;
  let titleReply: Plan | string = TITLE_REPLY;
  const supportRequests: Received<Body>[] = [];
  let supportReply = setup.supportReply;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const raw = Buffer.concat(chunks);
      if (setup.otherRoute?.(req, res, path, raw)) return;
      if (req.method !== 'POST' || path !== setup.endpoint) {
        return sendJson(res, 404, setup.errorBody('not-found', `no route ${req.method} ${path}`));
      }
      let body: Body;
      try {
        body = JSON.parse(raw.toString('utf8')) as Body;
      } catch {
        return sendJson(res, 400, setup.errorBody('bad-request', 'request body is not JSON'));
      }
      const received: Received<Body> = { body, headers: req.headers, aborted: false };
      const naming = setup.isTitleRequest(received);
      const checking = !naming && supportReply !== undefined && (setup.isSupportRequest?.(received) ?? false);
      (naming ? titleRequests : checking ? supportRequests : requests).push(received);
      res.on('close', () => {
        if (!res.writableFinished) received.aborted = true;
      });
      const takePlan = () =>
        naming ? titleReply : checking && supportReply !== undefined ? supportReply : (queue.shift() ?? defaultReply);
      setup.answer(res, received, takePlan).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, setup.errorBody('failed', String(err)));
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** The server's origin. */
    url,
    /** What LLM_BASE_URL is set to. */
    baseUrl: `${url}/v1`,
    /** Every request to the model's endpoint (titles aside), oldest first. */
    requests,
    /** The calls that named conversations, oldest first (not in `requests`). */
    titleRequests,
    /** The support checks of replies with sources, oldest first (not in `requests`). */
    supportRequests,
    /** How support checks are answered. */
    setSupportReply(plan: Plan) {
      supportReply = plan;
    },
    /** How calls that name a conversation are answered. */
    setTitleReply(plan: Plan) {
      titleReply = plan;
    },
    /** Replies for the next requests, in order; once used up, the default reply answers. */
    enqueue(...replies: Plan[]) {
      queue.push(...replies);
    },
    /** Replaces the default reply (and drops anything still queued). */
    setReply(plan: Plan) {
      queue.length = 0;
      defaultReply = plan;
    },
    lastRequest(): Received<Body> {
      const last = requests.at(-1);
      if (!last) throw new Error(setup.noRequest);
      return last;
    },
    /** Ends every open connection, hanging ones included. */
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
