/** The pool was closed before or while the request ran. */
export class SandboxClosedError extends Error {
  readonly code = 'SUTURE_SANDBOX_CLOSED';
  constructor(message = 'sandbox pool is closed') {
    super(message);
    this.name = 'SandboxClosedError';
  }
}

/** Sandbox host processes keep dying before they are ready (broken install, bad execArgv). */
export class SandboxStartError extends Error {
  readonly code = 'SUTURE_SANDBOX_START_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'SandboxStartError';
  }
}
