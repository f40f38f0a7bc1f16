/**
 * Every error code the daemon's HTTP API answers with, its status and what it means. Routes throw
 * `new HttpError(code, message)` with a code of this table, never a status or code of their own;
 * the error handler answers `{ statusCode, code, error, message }`. The README's "HTTP error codes"
 * section lists this table, and test/service/http-error-codes.test.ts holds the three together.
 */
export const HTTP_ERRORS = {
  SUTURE_INVALID_REQUEST: { status: 400, meaning: 'the request does not match the route\'s schema (the message names the field), or its body is not JSON' },
  SUTURE_SNAPSHOT_REFUSED: { status: 400, meaning: 'a snapshot in the request is too large, too deep or not a valid snapshot (the message names the field)' },
  SUTURE_UNAUTHENTICATED: { status: 401, meaning: 'no token, a malformed Authorization header, an unknown token, or the admin API is disabled' },
  SUTURE_FORBIDDEN: { status: 403, meaning: 'the token is valid but not for this app, or an app token on the admin API' },
  SUTURE_NOT_FOUND: { status: 404, meaning: 'no such route' },
  SUTURE_UNKNOWN_BUG: { status: 404, meaning: 'no bug with this fingerprint' },
  SUTURE_UNKNOWN_PATCH: { status: 404, meaning: 'no patch with this id' },
  SUTURE_UNKNOWN_JOB: { status: 404, meaning: 'no repair job with this id' },
  SUTURE_UNKNOWN_BLOCK: { status: 404, meaning: 'the block source a patch applies to is no longer stored' },
  SUTURE_CONFLICT: { status: 409, meaning: 'the decision is not allowed from the patch\'s (or bug\'s) current status' },
  SUTURE_BODY_TOO_LARGE: { status: 413, meaning: 'the body exceeds maxBodyBytes' },
  SUTURE_UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'the body is not application/json' },
  SUTURE_INTERNAL: { status: 500, meaning: 'an unexpected error (logged by the daemon)' },
  SUTURE_UNAVAILABLE: { status: 503, meaning: 'Redis is unreachable; retry later' },
  SUTURE_CLOSING: { status: 503, meaning: 'the daemon is shutting down; retry (Retry-After) against another daemon' },
} as const satisfies Record<`SUTURE_${string}`, { status: number; meaning: string }>;

export type HttpErrorCode = keyof typeof HTTP_ERRORS;

/** An error the daemon answers with the status of its code in {@link HTTP_ERRORS}; `code` is stable for clients. */
export class HttpError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: HttpErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = HTTP_ERRORS[code].status;
  }
}

/** The code of an error raised by the HTTP framework itself (bad JSON, body too large, wrong media type). */
export function frameworkErrorCode(status: number): HttpErrorCode {
  if (status === 413) return 'SUTURE_BODY_TOO_LARGE';
  if (status === 415) return 'SUTURE_UNSUPPORTED_MEDIA_TYPE';
  if (status === 404) return 'SUTURE_NOT_FOUND';
  return 'SUTURE_INVALID_REQUEST';
}

/** The JSON body of an error answer. */
export function errorBody(code: HttpErrorCode, message: string) {
  const { status } = HTTP_ERRORS[code];
  return { statusCode: status, code, error: STATUS_TEXT[status], message };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

/** The README section's table, generated from {@link HTTP_ERRORS}. */
export function httpErrorsMarkdown(): string {
  const rows = Object.entries(HTTP_ERRORS).map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.meaning} |`);
  return ['| code | status | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}
