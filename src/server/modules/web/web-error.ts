/** Why a page fetch or a web search failed; `message` is shown to the user and the model as it is. */
export type WebErrorCode =
  | 'bad-url'
  | 'refused'
  | 'untrusted'
  | 'not-found'
  | 'timeout'
  | 'too-large'
  | 'too-many-redirects'
  | 'unsupported-type'
  | 'http-status'
  | 'network'
  | 'cancelled'
  | 'search-not-configured'
  | 'search-failed';

export class WebError extends Error {
  constructor(
    readonly code: WebErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebError';
  }
}
