import { SNAPSHOT_CODEC_SOURCE } from '../core/snapshot.ts';
import type { Encoded } from '../core/types.ts';
import { unifiedDiff } from '../core/candidate-diff.ts';

/** What an export needs: the patch, the block it replaces, and the bug's cases as the admin API gives them. */
export interface ExportInput {
  patch: { id: string; app: string; blockId: string; version: number; source: string; fingerprint: string; score?: { generator: string; description: string } };
  /** The original block source (a function expression, as the SDK reports it). */
  originalSource: string;
  /** Failing inputs of the bug, each `args` a list of snapshot encodings. */
  failures: { args: Encoded[]; at: string; error?: { name: string; message: string } }[];
  /** Recorded successful calls of the block. */
  recorded: { args: Encoded[]; result: Encoded; argsAfter?: Encoded[]; at: string }[];
}

export interface ExportFiles {
  /** `<patch>.diff`: unified diff of the fix against the block's source. */
  diffName: string;
  diff: string;
  /** `<patch>.test.mjs`: standalone regression test for `node --test`. */
  testName: string;
  test: string;
}

/** File-name-safe form of a patch id. */
export function exportBaseName(patchId: string): string {
  return patchId.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * The fix as source-control material: a unified diff, and a regression test that defines the
 * original block and the patched one and checks the patched one (or, with
 * SUTURE_EXPORT_TARGET=original, the original, which must fail) on the first failure, every other
 * failing input (must not throw) and every recorded call (same result, same argument state after).
 * Values are snapshot encodings; the codec's source is embedded so the file needs nothing installed.
 */
export function buildExport(input: ExportInput): ExportFiles {
  const base = exportBaseName(input.patch.id);
  const failures = input.failures.slice().sort((a, b) => a.at.localeCompare(b.at));
  const recorded = input.recorded.slice().sort((a, b) => a.at.localeCompare(b.at));
  const diff = unifiedDiff(input.originalSource, input.patch.source, `${input.patch.blockId}.js`);
  const p = input.patch;
  const header = [
    `// Regression test exported by suture for patch ${p.id} (version ${p.version}) of block "${p.blockId}", app "${p.app}".`,
    `// Bug ${p.fingerprint}${p.score ? `; fix by ${p.score.generator}: ${p.score.description}` : ''}.`,
    '// Run: node --test ' + `${base}.test.mjs` + '   (SUTURE_EXPORT_TARGET=original runs it against the original block, which fails)',
    '// Once the fix is in your code, point `patched` at your function and keep this file with your tests.',
  ].join('\n');
  const test = `${header}
import { test } from 'node:test';
import assert from 'node:assert/strict';

// The block as it was when it failed.
const original = (
${input.originalSource}
);

// The fix suture published.
const patched = (
${p.source}
);

const target = process.env.SUTURE_EXPORT_TARGET === 'original' ? original : patched;

// suture's snapshot codec (core/snapshot-codec.js): decodes the recorded values (undefined, NaN,
// Date, Map, cycles...) that plain JSON cannot hold.
${SNAPSHOT_CODEC_SOURCE}
const codec = createSnapshotCodec();
const decodeArgs = (args) => args.map((a) => codec.decode(a));
// Expectations pass through the same encoding (redaction, caps) as the actual values they are compared with.
const normalise = (encoded) => { try { return codec.encode(codec.decode(encoded)); } catch { return encoded; } };
const same = (actual, expected) => codec.equal(codec.encode(actual), normalise(expected));
const show = (encoded) => JSON.stringify(encoded).slice(0, 300);

const failures = ${JSON.stringify(failures.map((f) => ({ args: f.args, at: f.at, error: f.error })), null, 2)};

const recorded = ${JSON.stringify(recorded.map((r) => ({ args: r.args, result: r.result, argsAfter: r.argsAfter, at: r.at })), null, 2)};

failures.forEach((f, i) => {
  const name = i === 0 ? 'the original failure' : \`failing input \${i + 1}\`;
  test(\`\${name} (\${f.error ? f.error.name + ': ' + f.error.message : 'threw'}) no longer throws\`, async () => {
    const args = decodeArgs(f.args);
    await assert.doesNotReject(async () => target(...args));
  });
});

recorded.forEach((r, i) => {
  test(\`recorded call \${i + 1} returns the same value and leaves its arguments in the same state\`, async () => {
    const args = decodeArgs(r.args);
    const result = await target(...args);
    assert.ok(same(result, r.result), \`returned \${show(codec.encode(result))}, recorded \${show(r.result)}\`);
    if (r.argsAfter) {
      r.argsAfter.forEach((after, k) => {
        assert.ok(same(args[k], after), \`argument \${k + 1} after the call is \${show(codec.encode(args[k]))}, recorded \${show(after)}\`);
      });
    }
  });
});
`;
  return { diffName: `${base}.diff`, diff, testName: `${base}.test.mjs`, test };
}
