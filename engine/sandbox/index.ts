/**
 * The sandbox: runs a candidate on its cases inside isolated-vm, in forked host processes a crash can
 * take down (SandboxPool), and replays a case's recorded dependency calls as the world the candidate
 * sees. Nothing outside runs untrusted code any other way. This is the area's face: the rest of the
 * engine, and anything outside that uses the sandbox alone, import from here.
 */
export { SandboxPool } from './sandbox-pool.ts';
export { TrialRunner } from './trial-runner.ts';
export { DEFAULT_LIMITS } from './trial-limits.ts';
export { comparedCalls } from './world-replay.ts';
