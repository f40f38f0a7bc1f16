import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lifecycleMarkdown } from '../../service/patch-lifecycle.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

test('docs/architecture.md carries the lifecycle tables as service/patch-lifecycle.ts prints them', () => {
  const m = /<!-- lifecycle:start -->\n([\s\S]*?)<!-- lifecycle:end -->/.exec(DOC);
  assert.ok(m, 'the lifecycle markers are in the doc');
  assert.equal(m[1], lifecycleMarkdown(), 'paste the output of lifecycleMarkdown() between the markers');
});

test('the import rules in the doc are the ones npm test enforces', () => {
  const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] };
  const enforced = config.forbidden.map((r) => r.name).sort();
  const section = DOC.slice(DOC.indexOf('## Import directions'), DOC.indexOf('## From a failure'));
  const documented = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((x) => x[1]).sort();
  assert.deepEqual(documented, enforced);
});

test('every top-level source folder has a row saying what it owns', () => {
  const folders = readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !['node_modules', 'dist', 'docs', 'scratch'].includes(e.name))
    .map((e) => e.name);
  const missing = folders.filter((f) => !DOC.includes(`| \`${f}/\` |`));
  assert.deepEqual(missing, [], 'folders with no row in "Layers and what each folder owns"');
});

test('the vocabulary defines each word once', () => {
  const section = DOC.slice(DOC.indexOf('## Vocabulary'), DOC.indexOf('### Renamed'));
  const words = [...section.matchAll(/^\| \*\*([^*]+)\*\*/gm)].map((x) => x[1]);
  assert.ok(words.length >= 20, `${words.length} words`);
  assert.equal(new Set(words).size, words.length, `a word defined twice: ${words}`);
  for (const w of ['snapshot', 'case', 'trial', 'verdict', 'outcome report', 'candidate', 'plausible', 'patch', 'mode', 'grant', 'evidence', 'round', 'bug', 'block']) {
    assert.ok(words.includes(w), `${w} is defined`);
  }
});

test('no source or doc points to DESIGN.md or to an issue number', () => {
  const skip = /^(node_modules|scratch|\.git|bench\/suites|bench\/results)(\/|$)|(^|\/)(node_modules|dist)(\/|$)/;
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      const rel = relative(ROOT, path);
      if (skip.test(rel)) continue;
      if (e.isDirectory()) walk(path);
      else if (/\.(ts|js|cjs|mjs|lua|md|html|css|sh)$/.test(e.name) && rel !== 'test/docs/architecture.test.ts') {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/DESIGN\.md|\bissues? #?\d+/gi)) offenders.push(`${rel}: ${m[0]}`);
      }
    }
  };
  walk(ROOT);
  assert.deepEqual(offenders, []);
});
