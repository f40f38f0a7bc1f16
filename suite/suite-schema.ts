/**
 * The on-disk shapes of a benchmark suite (layout in bench/suites/README.md), as zod schemas,
 * and the mapping from a case as written in a suite file to the engine's core `Case`.
 */
import { z } from 'zod';
import type { Case, CaseKind } from '../core/types.ts';
import type { CallWorld } from '../core/world.ts';

export const suiteJsonSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  license: z.string().optional(),
});

export const bugJsonSchema = z.object({
  id: z.string().min(1),
  entry: z.string().min(1),
  description: z.string(),
  bug_type: z.string().optional(),
  // A relative file name inside the bug dir; suites written by us always say "buggy.js".
  source: z.string().regex(/^[^/\\]+$/, 'must be a file name inside the bug directory'),
  /** Outside names the block reads (module constants, helpers, injected clients), defined in each trial from a case's `world`. */
  uses: z.array(z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, 'must be an identifier')).optional(),
});

const encodedValues = z.record(z.string(), z.unknown());

/** One call the block made through a `uses` name (core/world.ts DependencyCall). */
const dependencyCallSchema = z.strictObject({
  path: z.string().min(1),
  args: z.array(z.unknown()),
  /** Before `async`: 'sync' | 'async'. Refused with the way out, ahead of the missing `async`. */
  mode: z.undefined({ error: 'renamed: a call says "async": true or false (bench/tools/convert-world-calls.ts converts a suite)' }).optional(),
  async: z.boolean(),
  result: z.unknown().optional(),
  error: z.strictObject({ name: z.string(), message: z.string() }).optional(),
});

/** The world of a case's call (core/world.ts CallWorld): values are snapshot encodings, functions `{"$t":"function","name":"..."}`. */
export const worldSchema = z.strictObject({
  uses: encodedValues,
  usesAfter: encodedValues.optional(),
  calls: z.array(dependencyCallSchema),
  this: z.unknown().optional(),
  thisAfter: z.unknown().optional(),
  sources: z.record(z.string(), z.string()).optional(),
});

const caseKind = z.enum(['failure', 'recorded', 'test']);

/**
 * One case as written in cases.json / hidden.json. Exactly one of three forms:
 * `{args, expect}`, `{args, throws: false}`, `{script}`; plus optional `kind` and (value form only) `argsAfter`.
 * `expect` may legitimately be `null`, so its presence is checked by key, not by value.
 */
export const fileCaseSchema = z
  .strictObject({
    args: z.array(z.unknown()).optional(),
    expect: z.unknown().optional(),
    throws: z.literal(false).optional(),
    script: z.string().min(1).optional(),
    kind: caseKind.optional(),
    argsAfter: z.array(z.unknown()).optional(),
    world: worldSchema.optional(),
  })
  .superRefine((value, ctx) => {
    const has = (key: string) => Object.hasOwn(value, key);
    if (has('script')) {
      for (const key of ['args', 'expect', 'throws', 'argsAfter']) {
        if (has(key)) ctx.addIssue({ code: 'custom', path: [key], message: `not allowed beside "script"` });
      }
      return;
    }
    if (!has('args')) {
      ctx.addIssue({ code: 'custom', path: ['args'], message: 'required (or give "script")' });
      return;
    }
    if (has('expect') === has('throws')) {
      ctx.addIssue({
        code: 'custom',
        path: has('expect') ? ['throws'] : ['expect'],
        message: 'a case with "args" needs exactly one of "expect" or "throws": false',
      });
    }
    if (has('argsAfter') && !has('expect')) {
      ctx.addIssue({ code: 'custom', path: ['argsAfter'], message: 'only allowed with "expect"' });
    }
    if (has('argsAfter') && value.args && value.argsAfter && value.argsAfter.length !== value.args.length) {
      ctx.addIssue({ code: 'custom', path: ['argsAfter'], message: 'must have one entry per argument' });
    }
  });

export const caseFileSchema = z.array(fileCaseSchema);

export type FileCase = z.infer<typeof fileCaseSchema>;

/** Map a validated file case to a core Case with id `<prefix>-<index>`. */
export function toCoreCase(fileCase: FileCase, id: string): Case {
  const kind: CaseKind = fileCase.kind ?? 'test';
  const world = fileCase.world ? { world: fileCase.world as CallWorld } : {};
  if (fileCase.script !== undefined) return { id, kind, check: 'script', script: fileCase.script, ...world };
  if (Object.hasOwn(fileCase, 'expect')) {
    const value: Case = { id, kind, check: 'value', args: fileCase.args ?? [], expect: fileCase.expect, ...world };
    if (fileCase.argsAfter) value.argsAfter = fileCase.argsAfter;
    return value;
  }
  return { id, kind, check: 'no-throw', args: fileCase.args ?? [], ...world };
}
