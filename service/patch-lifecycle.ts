import type { Policy } from '../config/config-settings.ts';
import { PATCH_STATUSES, type PatchStatus } from '../core/patch-status.ts';
import type { PatchMode } from '../core/wire.ts';

/**
 * The patch lifecycle, in one place: what each status means and who sees it, where a new patch
 * starts under each publication policy, how a canary climbs its steps, what outcome reports do,
 * and which operator decisions are allowed from which status. The publisher, the admin routes,
 * the manifest, the dashboard's buttons and docs/architecture.md all read this module; the Lua
 * scripts that apply outcomes atomically are held to it by test/service/patch-lifecycle.test.ts.
 */

export interface StatusRow {
  meaning: string;
  /** Listed in the SDK manifest: live patches, and rolled-back ones so instances drop them. */
  inManifest: boolean;
  /** Outcome reports can promote it or roll it back (otherwise they are only counted). */
  live: boolean;
}

export const PATCH_STATUS_TABLE: Readonly<Record<PatchStatus, StatusRow>> = {
  'pending-approval': { meaning: 'signed and stored, waiting for an operator (manual policy); runs nowhere', inManifest: false, live: false },
  canary: { meaning: 'runs on the share of instances of its current canary step', inManifest: true, live: true },
  active: { meaning: 'runs on every instance', inManifest: true, live: true },
  'rolled-back': { meaning: 'withdrawn (by an operator, a shadow disagreement or too many throws); instances drop it', inManifest: true, live: false },
  rejected: { meaning: 'refused by an operator before it ran', inManifest: false, live: false },
  superseded: { meaning: 'replaced by a later version of the same block (reserved: nothing sets it yet)', inManifest: false, live: false },
};

export { PATCH_STATUSES };
export const MANIFEST_STATUSES = PATCH_STATUSES.filter((s) => PATCH_STATUS_TABLE[s].inManifest);
export const LIVE_STATUSES = PATCH_STATUSES.filter((s) => PATCH_STATUS_TABLE[s].live);

/** Where a patch stands: its status, share of instances and canary step. */
export interface Placement {
  status: PatchStatus;
  rollout: number;
  step: number;
}

/**
 * Canary step `step` of `steps` (increasing, ending with 1): a share below 1 is a canary, the
 * last step (or any past it) is active at 1.
 */
export function canaryStep(steps: readonly number[], step: number): Placement {
  const rollout = steps[step] ?? 1;
  return rollout >= 1 ? { status: 'active', rollout: 1, step } : { status: 'canary', rollout, step };
}

/** Where a freshly signed patch starts under each publication policy. */
export const POLICY_START: Readonly<Record<Policy, { summary: string; place: (steps: readonly number[]) => Placement }>> = {
  auto: { summary: 'active at 1', place: () => ({ status: 'active', rollout: 1, step: 0 }) },
  canary: { summary: 'canary at the first step (active when that step is 1)', place: (steps) => canaryStep(steps, 0) },
  manual: { summary: 'pending-approval at 0', place: () => ({ status: 'pending-approval', rollout: 0, step: 0 }) },
};

/** Every new patch runs in this mode; only an operator's `replace` decision changes it. */
export const INITIAL_MODE: PatchMode = 'fallback';

export function initialPlacement(policy: Policy, steps: readonly number[]): Placement {
  return POLICY_START[policy].place(steps);
}

export type PatchDecision = 'approve' | 'reject' | 'promote' | 'rollback' | 'replace' | 'fallback';

interface DecisionBase {
  /** Statuses the decision is allowed from; from any other the admin API answers 409. */
  from: readonly PatchStatus[];
  summary: string;
}

/** A decision that moves the patch to another status (and rollout). */
export interface StatusDecision extends DecisionBase {
  kind: 'status';
  /** The request body may also set the mode (approve, promote). */
  takesMode: boolean;
  /** The bug's status afterwards ('' keeps it). */
  bugStatus: 'patched' | 'rejected' | 'rolled-back' | '';
  to: (patch: { status: PatchStatus; step: number }, steps: readonly number[]) => Placement;
}

/** A decision that changes how SDKs use the patch, not its status. */
export interface ModeDecision extends DecisionBase {
  kind: 'mode';
  mode: PatchMode;
}

/** Statuses a patch can still run from (or be approved into): a mode can be chosen there. */
const NOT_WITHDRAWN: readonly PatchStatus[] = ['pending-approval', 'canary', 'active'];

export const PATCH_DECISIONS: Readonly<Record<PatchDecision, StatusDecision | ModeDecision>> = {
  approve: {
    kind: 'status', from: ['pending-approval'], takesMode: true, bugStatus: 'patched',
    summary: 'Approve a patch waiting for approval: it becomes active for every instance',
    to: () => ({ status: 'active', rollout: 1, step: 0 }),
  },
  reject: {
    kind: 'status', from: ['pending-approval'], takesMode: false, bugStatus: 'rejected',
    summary: 'Reject a patch waiting for approval: it never runs',
    to: (p) => ({ status: 'rejected', rollout: 0, step: p.step }),
  },
  promote: {
    kind: 'status', from: ['canary', 'pending-approval'], takesMode: true, bugStatus: 'patched',
    summary: 'Move a patch to its next canary step (a waiting patch to the first step)',
    to: (p, steps) => canaryStep(steps, p.status === 'pending-approval' ? 0 : p.step + 1),
  },
  rollback: {
    kind: 'status', from: NOT_WITHDRAWN, takesMode: false, bugStatus: 'rolled-back',
    summary: 'Roll back a patch (active, canary or waiting): instances return to the original block',
    to: (p) => ({ status: 'rolled-back', rollout: 0, step: p.step }),
  },
  replace: {
    kind: 'mode', from: NOT_WITHDRAWN, mode: 'replace',
    summary: 'Let a patch replace its block outright (signed grant), instead of answering only the calls that throw',
  },
  fallback: {
    kind: 'mode', from: NOT_WITHDRAWN, mode: 'fallback',
    summary: 'Return a patch to fallback mode: the block runs as written and the patch answers only calls that throw',
  },
};

export const DECISION_NAMES = Object.keys(PATCH_DECISIONS) as PatchDecision[];

export function decisionAllowed(decision: PatchDecision, status: PatchStatus): boolean {
  return PATCH_DECISIONS[decision].from.includes(status);
}

/**
 * The decisions worth offering an operator for a patch: allowed from its status, and for a mode
 * decision only the one that changes its mode.
 */
export function offeredDecisions(patch: { status: PatchStatus; mode?: PatchMode }): PatchDecision[] {
  return DECISION_NAMES.filter((d) => {
    const row = PATCH_DECISIONS[d];
    return row.from.includes(patch.status) && (row.kind === 'status' || row.mode !== (patch.mode ?? INITIAL_MODE));
  });
}

/** The rules outcome reports apply (configuration: canarySteps, canaryCleanCalls, rollbackThreshold, rollbackMinCalls). */
export interface OutcomeRules {
  steps: readonly number[];
  cleanCalls: number;
  threshold: number;
  minCalls: number;
}

/** A patch's counters as outcome reports move them. */
export interface OutcomeState {
  status: PatchStatus;
  rollout: number;
  step: number;
  passed: number;
  threw: number;
  /** Clean calls (patched calls that passed, shadow runs that agreed) and throws at the current step. */
  stepPassed: number;
  stepThrew: number;
}

export type OutcomeDecision = 'counted' | 'promoted' | 'rolled-back' | 'ignored';

export interface OutcomeResult {
  decision: OutcomeDecision;
  status: PatchStatus;
  rollout: number;
  step: number;
  reason?: 'shadow' | 'threw';
}

/** The outcome rules in words, in the order they apply (docs/architecture.md shows them). */
export const OUTCOME_RULES_TEXT: readonly string[] = [
  `a patch that is not live (${PATCH_STATUSES.filter((st) => !PATCH_STATUS_TABLE[st].live).join(', ')}): counters only (\`ignored\`)`,
  'any shadow run that disagreed with the block: rolled-back (reason `shadow`), the bug too',
  'at least rollbackMinCalls patched calls in all and more than rollbackThreshold of them threw: rolled-back (reason `threw`), the bug too',
  'a canary with at least canaryCleanCalls clean calls at its step and a throw share at the step within rollbackThreshold: next canary step (`promoted`; active at the last)',
  'otherwise: counted',
];

/**
 * What one outcome report does to a patch (apply-outcome-3.lua does the same atomically in Redis).
 * Clean calls are patched calls that passed plus shadow runs that agreed.
 */
export function applyOutcomeRules(s: OutcomeState, c: { passed: number; threw: number; agreed?: number; disagreed?: number }, rules: OutcomeRules): OutcomeResult {
  const same = { status: s.status, rollout: s.rollout, step: s.step };
  if (!PATCH_STATUS_TABLE[s.status].live) return { decision: 'ignored', ...same };
  const passed = s.passed + c.passed;
  const threw = s.threw + c.threw;
  const stepClean = s.stepPassed + c.passed + (c.agreed ?? 0);
  const stepThrew = s.stepThrew + c.threw;
  const rolledBack = { decision: 'rolled-back', status: 'rolled-back', rollout: 0, step: s.step } as const;
  if ((c.disagreed ?? 0) > 0) return { ...rolledBack, reason: 'shadow' };
  if (passed + threw >= rules.minCalls && threw / (passed + threw) > rules.threshold) return { ...rolledBack, reason: 'threw' };
  if (s.status === 'canary' && stepClean >= rules.cleanCalls && stepThrew / (stepClean + stepThrew) <= rules.threshold) {
    return { decision: 'promoted', ...canaryStep(rules.steps, s.step + 1) };
  }
  return { decision: 'counted', ...same };
}

const code = (s: string) => `\`${s}\``;

/** The lifecycle as Markdown tables (docs/architecture.md carries this text; a test holds them equal). */
export function lifecycleMarkdown(): string {
  const lines = [
    '| status | meaning | in the manifest | outcome reports move it |',
    '| --- | --- | --- | --- |',
    ...PATCH_STATUSES.map((s) => `| ${code(s)} | ${PATCH_STATUS_TABLE[s].meaning} | ${PATCH_STATUS_TABLE[s].inManifest ? 'yes' : 'no'} | ${PATCH_STATUS_TABLE[s].live ? 'yes' : 'no'} |`),
    '',
    `| policy | a new patch starts (mode ${code(INITIAL_MODE)}) |`,
    '| --- | --- |',
    ...(Object.keys(POLICY_START) as Policy[]).map((p) => `| ${code(p)} | ${POLICY_START[p].summary} |`),
    '',
    '| decision | allowed from | effect |',
    '| --- | --- | --- |',
    ...DECISION_NAMES.map((d) => {
      const row = PATCH_DECISIONS[d];
      const effect = row.kind === 'mode'
        ? `mode ${code(row.mode)}`
        : `${describeStatusDecision(d)}${row.bugStatus ? `; bug ${code(row.bugStatus)}` : ''}${row.takesMode ? '; may also set the mode' : ''}`;
      return `| ${code(d)} | ${row.from.map(code).join(', ')} | ${effect} |`;
    }),
    '',
    'Outcome reports (POST /v1/outcomes), in order:',
    '',
    ...OUTCOME_RULES_TEXT.map((t, i) => `${i + 1}. ${t}`),
  ];
  return `${lines.join('\n')}\n`;
}

function describeStatusDecision(d: PatchDecision): string {
  if (d === 'promote') return 'next canary step (`active` at 1 after the last)';
  const row = PATCH_DECISIONS[d] as StatusDecision;
  const to = row.to({ status: row.from[0], step: 0 }, [1]);
  return `${code(to.status)} at ${to.rollout}`;
}
