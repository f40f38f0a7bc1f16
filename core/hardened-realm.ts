/**
 * The texts that make an isolated-vm context a hardened realm (see hardened-realm-script.js): SES, the
 * snapshot codec and the realm script, in the order they must run. The worker's trial sandbox and
 * the SDK's patch isolates both build their contexts from these, so a candidate under trial and a
 * signed patch in an app see the same world and are read out by the same code.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SNAPSHOT_CODEC_SOURCE } from './snapshot.ts';

/** SES's self-contained script build: it defines `lockdown`, `harden` and `Compartment` as globals. */
const SES_SOURCE = readFileSync(join(dirname(createRequire(import.meta.url).resolve('ses')), 'ses.umd.min.js'), 'utf8');

/** `createHardenedRealm(lockdownOptions)`: lock, compartments, block evaluation. */
export const HARDENED_REALM_SOURCE: string = readFileSync(new URL('./hardened-realm-script.js', import.meta.url), 'utf8');

/** The scripts every hardened context runs before its own harness, in order. */
export const REALM_SETUP_SCRIPTS: ReadonlyArray<{ code: string; filename: string }> = [
  { code: SES_SOURCE, filename: 'ses.js' },
  { code: SNAPSHOT_CODEC_SOURCE, filename: 'snapshot-codec.js' },
  { code: HARDENED_REALM_SOURCE, filename: 'hardened-realm-script.js' },
];

/** Lines of wrapper before a block's own first line in what a compartment evaluates (`block.js`). */
export const BLOCK_PREFIX_LINES = 1;
