/**
 * The import rules of the layers (docs/architecture.md, "Import directions"), checked by
 * `npm test` before the type check. Only imports of our own files are constrained; node
 * built-ins and npm packages are free.
 */
const ours = (path) => ({ path, dependencyTypesNot: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'] });
/** An engine area: engine/<area>/, a generator being an area of its own (engine/generators/<name>/). */
const AREA = '(?:generators/[^/]+|(?!generators/)[^/]+)';

module.exports = {
  forbidden: [
    {
      name: 'sdk-imports-only-core',
      comment: 'The SDK ships to apps: of our code it may use only core/.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { ...ours('^(?!sdk/|core/)'), pathNot: '^node_modules/' },
    },
    {
      name: 'daemon-not-engine-or-worker',
      comment: 'The daemon answers HTTP and never runs candidates: no engine/, no worker/.',
      severity: 'error',
      from: { path: '^daemon/' },
      to: { path: '^(engine|worker)/' },
    },
    {
      name: 'engine-is-a-library',
      comment: 'The engine repairs one bug given cases; it knows nothing of Redis, HTTP, queues or the CLI.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: '^(service|daemon|worker|cli)/' },
    },
    {
      name: 'engine-face',
      comment:
        'Outside engine/, code imports engine/index.ts, or the index.ts of the one area it uses alone (the sandbox, a generator); ' +
        'never another engine module. test/ may import any engine module, to unit-test internals.',
      severity: 'error',
      from: { pathNot: '^(engine|test)/' },
      to: { path: '^engine/', pathNot: ['^engine/index\\.ts$', `^engine/${AREA}/index\\.ts$`] },
    },
    {
      name: 'engine-area-faces',
      comment: 'An engine area imports another area only through its index.ts; modules of one area import each other directly.',
      severity: 'error',
      from: { path: `^engine/(${AREA})/` },
      to: { path: `^engine/${AREA}/(?!index\\.ts$)`, pathNot: '^engine/$1/' },
    },
    {
      name: 'engine-root-via-faces',
      comment: 'repair-engine.ts, repair-report.ts and engine/index.ts reach the areas only through their index.ts.',
      severity: 'error',
      from: { path: '^engine/[^/]+$' },
      to: { path: `^engine/${AREA}/(?!index\\.ts$)` },
    },
    {
      name: 'engine-area-not-through-own-face',
      comment:
        "An area's modules never import their own index.ts, engine/index.ts or repair-engine.ts: each of those imports the area, " +
        'so it would be a cycle. Of the engine root an area may use repair-report.ts (the report types; it imports only core/).',
      severity: 'error',
      from: { path: `^engine/(${AREA})/` },
      to: { path: '^engine/((index|repair-engine)\\.ts|$1/index\\.ts)$' },
    },
    {
      name: 'service-below-daemon-and-worker',
      comment: 'service/ is shared by daemon and worker: it imports neither, nor the engine.',
      severity: 'error',
      from: { path: '^service/' },
      to: { path: '^(daemon|worker|engine)/' },
    },
    {
      name: 'core-imports-nothing-of-ours',
      comment: 'core/ is the bottom layer.',
      severity: 'error',
      from: { path: '^core/' },
      to: ours('^(?!core/)'),
    },
    {
      name: 'worker-not-daemon',
      comment: 'The worker uses engine/ and service/; it never imports the HTTP daemon.',
      severity: 'error',
      from: { path: '^worker/' },
      to: { path: '^daemon/' },
    },
    {
      name: 'only-tests-import-tests',
      comment: 'Helpers shared by tests and benches live in testkit/.',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'resolvable',
      comment: 'Every relative import names a file that exists.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|^bench/suites/' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
