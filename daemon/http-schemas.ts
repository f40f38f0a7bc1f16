/**
 * JSON schemas of the HTTP API (validated by fastify's Ajv; a failure answers 400 with a message
 * naming the field, e.g. "body/block must have required property 'source'"). They also feed the
 * OpenAPI document. Lengths bound what one client can make the daemon store.
 */
import { PATCH_STATUSES, POLICY_START } from '../service/patch-lifecycle.ts';

const appName = { type: 'string', pattern: '^[A-Za-z0-9._-]{1,100}$' } as const;
const requestId = { type: 'string', minLength: 1, maxLength: 200 } as const;
const instanceId = { type: 'string', minLength: 1, maxLength: 200 } as const;
const isoTime = { type: 'string', minLength: 1, maxLength: 64 } as const;
const blockId = { type: 'string', minLength: 1, maxLength: 200 } as const;
const source = { type: 'string', minLength: 1, maxLength: 100_000 } as const;
const description = { type: 'string', maxLength: 2000 } as const;
const encodedList = { type: 'array', maxItems: 64, items: {} } as const;
const fingerprint = { type: 'string', pattern: '^[0-9a-f]{32}$' } as const;
const patchId = { type: 'string', pattern: '^[0-9a-f]{16}-v[0-9]{1,9}$' } as const;
/** The outside names a block is given (`uses`): identifiers, each once. */
const uses = { type: 'array', maxItems: 64, uniqueItems: true, items: { type: 'string', pattern: '^[A-Za-z_$][A-Za-z0-9_$]{0,199}$' } } as const;

/** A thrown error as a dependency call or a patch's answer carries it. */
const errorShape = { type: 'object', additionalProperties: false, required: ['name', 'message'], properties: { name: { type: 'string', maxLength: 200 }, message: { type: 'string', maxLength: 2000 } } } as const;
/** A `uses` value or receiver, per name (snapshot-encoded; sizes checked per value by the route). */
const encodedByName = { type: 'object', maxProperties: 64, propertyNames: { pattern: '^[A-Za-z_$][A-Za-z0-9_$]{0,199}$' }, additionalProperties: {} } as const;

/** The world of one call (core/world.ts): `uses` values, the dependency calls in order, the receiver. */
const world = {
  type: 'object',
  additionalProperties: false,
  required: ['uses', 'calls'],
  properties: {
    uses: encodedByName,
    usesAfter: encodedByName,
    calls: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'args', 'async'],
        properties: {
          path: { type: 'string', minLength: 1, maxLength: 500 },
          args: encodedList,
          async: { type: 'boolean' },
          result: {},
          error: errorShape,
        },
      },
    },
    this: {},
    thisAfter: {},
    sources: { type: 'object', maxProperties: 200, additionalProperties: { type: 'string', maxLength: 100_000 } },
  },
} as const;

export const failureReportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['requestId', 'app', 'instanceId', 'block', 'error', 'args', 'at'],
  properties: {
    requestId,
    app: appName,
    instanceId,
    block: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'source'],
      properties: { id: blockId, description, source, uses },
    },
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'message'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        message: { type: 'string', maxLength: 10_000 },
        stack: { type: 'string', maxLength: 20_000 },
      },
    },
    args: encodedList,
    inputs: { type: 'string', enum: ['entry', 'after-throw'] },
    at: isoTime,
    patchId,
    world,
  },
} as const;

export const failureAckSchema = {
  type: 'object',
  properties: {
    fingerprint: { type: 'string' },
    jobId: { type: 'string' },
    duplicate: { type: 'boolean' },
    status: { type: 'string', description: "the bug's status after the report; 'cannot-see': the block reads names suture cannot see, no job is queued" },
    names: { type: 'array', items: { type: 'string' }, description: "status 'cannot-see': the names" },
    message: { type: 'string', description: "status 'cannot-see': what to do, e.g. \"block 'price' reads RATES, which suture cannot see; pass it in uses\"" },
  },
} as const;

const recordedCallSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['args', 'result', 'at'],
  properties: { args: encodedList, result: {}, argsAfter: encodedList, at: isoTime, world },
} as const;

export const recordedCasesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['requestId', 'app', 'instanceId', 'blocks'],
  properties: {
    requestId,
    app: appName,
    instanceId,
    blocks: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'source', 'calls'],
        properties: {
          id: blockId,
          description,
          source,
          uses,
          calls: {
            type: 'array',
            maxItems: 1000,
            items: recordedCallSchema,
          },
        },
      },
    },
  },
} as const;

export const outcomeReportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['requestId', 'app', 'instanceId', 'outcomes'],
  properties: {
    requestId,
    app: appName,
    instanceId,
    outcomes: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['patchId', 'passed', 'threw'],
        properties: {
          patchId: { type: 'string', minLength: 1, maxLength: 100 },
          passed: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
          threw: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
          agreed: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
          disagreed: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
          disagreements: {
            type: 'array',
            maxItems: 10,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['call', 'patch'],
              properties: {
                call: recordedCallSchema,
                patch: {
                  type: 'object',
                  additionalProperties: false,
                  properties: {
                    result: {},
                    argsAfter: encodedList,
                    error: errorShape,
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

export const appQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['app'],
  properties: { app: appName },
} as const;

export const patchWaitParamsSchema = {
  type: 'object',
  required: ['fingerprint'],
  properties: { fingerprint },
} as const;

/** The long poll's answer when no patch will come for the bug (core/wire.ts NoPatchAnswer). */
export const noPatchSchema = {
  type: 'object',
  required: ['status', 'bugStatus', 'reason'],
  properties: {
    status: { type: 'string', enum: ['no-patch'] },
    bugStatus: { type: 'string' },
    reason: { type: 'string' },
    names: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const patchWaitQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { wait: { type: 'integer', minimum: 0, maximum: 600_000 } },
} as const;

/** Cases a patch was checked against, by kind, and its re-check verdict (core/wire.ts PatchEvidence; signed). */
const count = { type: 'integer' } as const;
export const patchEvidenceSchema = {
  type: 'object',
  properties: { failing: count, recorded: count, generated: count, tests: count, recheck: { type: 'object', properties: { passed: count, total: count } } },
} as const;

export const manifestPatchSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    app: { type: 'string' },
    blockId: { type: 'string' },
    sourceHash: { type: 'string' },
    version: { type: 'integer' },
    source: { type: 'string' },
    fingerprint: { type: 'string' },
    status: { type: 'string', enum: PATCH_STATUSES },
    rollout: { type: 'number' },
    signature: { type: 'string' },
    mode: { type: 'string', enum: ['fallback', 'replace'] },
    modeSignature: { type: 'string' },
    score: {
      type: 'object',
      properties: {
        generator: { type: 'string' },
        description: { type: 'string' },
        passed: { type: 'integer' },
        total: { type: 'integer' },
        editSize: { type: 'integer' },
      },
    },
    evidence: patchEvidenceSchema,
  },
} as const;

export const manifestSchema = {
  type: 'object',
  properties: { app: { type: 'string' }, revision: { type: 'integer' }, patches: { type: 'array', items: manifestPatchSchema } },
} as const;

export const adminDecisionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    reason: { type: 'string', maxLength: 2000 },
    requeue: { type: 'boolean' },
    mode: { type: 'string', enum: ['fallback', 'replace'] },
  },
} as const;

export const policyUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['app', 'policy'],
  properties: {
    app: appName,
    blockId,
    policy: { anyOf: [{ type: 'string', enum: Object.keys(POLICY_START) }, { type: 'null' }] },
  },
} as const;

export const idParamsSchema = (name: string, schema: object = { type: 'string', minLength: 1, maxLength: 200 }) =>
  ({ type: 'object', required: [name], properties: { [name]: schema } }) as const;

export const patchIdSchema = patchId;
export const fingerprintSchema = fingerprint;
