import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Links mailed to users carry a secret in their path; whoever reads the log must not be able to use them. */
const SECRET_PATH = /\/(reset-password|verify-email)\/[^/]+/g;

/** The path of a request as it may be logged: no query string, and mailed tokens masked. */
export const loggablePath = (url: string) => url.split('?')[0]!.replace(SECRET_PATH, '/$1/<token>');

/**
 * One line per request once it is answered (method, path, status, time; the request id comes with the request's
 * logger) in place of Fastify's "incoming request" and "request completed" pair.
 */
export class RequestLogController extends LogController {
  constructor() {
    super({ disableRequestLogging: true });
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const path = loggablePath(request.url);
    const ms = Math.round(reply.elapsedTime);
    const line = { method: request.method, path, status: reply.statusCode, ms };
    const msg = `${request.method} ${path} ${reply.statusCode} ${ms} ms`;
    if (error) request.log.error({ ...line, err: error }, msg);
    else request.log.info(line, msg);
  }
}
