// The dependency rules of docs/architecture.md, checked in CI (`npm run lint`, depcruise). Type-only
// imports count as dependencies (tsPreCompilationDeps), as madge counts them.
/** Folders of src/ that code outside them reaches only through their index.ts. */
const FOLDERS = '(engine|api|store|answer|ingest-content|llm|model-source|train|client|mcp|cluster)';

/** The engine's rooms, lowest first: a room imports only rooms before it in this list. */
const ROOMS = ['runtime', 'text', 'model', 'segment', 'ranking', 'index'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere in src/, type-only imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'layers-point-one-way',
      comment: 'cli -> api -> engine, store: nothing below imports what sits above it.',
      severity: 'error',
      from: { path: '^src/(engine|store|llm|client)/' },
      to: { path: '^src/(api|cli|train)/' },
    },
    {
      name: 'cluster-from-the-cli-only',
      comment: 'The cluster (src/cluster, the NATS client) is wired in by the CLI alone: the API reaches it only through the hooks it is given (api/cluster-hooks.ts).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/cluster/'] },
      to: { path: '^src/cluster/' },
    },
    {
      name: 'nats-in-the-cluster-only',
      comment: 'Only src/cluster imports the NATS client.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cluster/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'], path: 'node_modules/@nats-io/' },
    },
    {
      name: 'api-not-cli',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/(cli|client)/' },
    },
    {
      name: 'mcp-through-a-backend',
      comment: 'The MCP tools reach svc only through the backend they are given (the client for svc mcp, the handlers for /v1/mcp).',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/[^/]+/', pathNot: '^src/mcp/' },
    },
    {
      name: 'engine-is-the-bottom',
      comment: 'The engine imports no other folder of src/ (shared top-level modules such as version.ts and api-types.ts only).',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/[^/]+/', pathNot: '^src/engine/' },
    },
    {
      name: 'engine-no-frameworks',
      comment: 'The engine never imports express, lmdb or commander.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'], path: 'node_modules/(express|lmdb|commander)/' },
    },
    {
      name: 'store-below-api',
      comment: 'The store knows nothing of the engine, HTTP or the CLI.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/[^/]+/', pathNot: '^src/store/' },
    },
    {
      name: 'answer-and-ingest-content-share-llm-only',
      comment: 'answer/ and ingest-content/ both use llm/, never each other.',
      severity: 'error',
      from: { path: '^src/(answer|ingest-content)/' },
      to: { path: '^src/(answer|ingest-content)/' , pathNot: '^src/$1/' },
    },
    {
      name: 'entry-modules-only',
      comment: 'Code outside a folder imports only its index.ts.',
      severity: 'error',
      from: { path: `^src/([^/]+)/` },
      to: { path: `^src/${FOLDERS}/.+`, pathNot: [`^src/$1/`, `^src/${FOLDERS}/index\\.ts$`] },
    },
    ...ROOMS.slice(0, -1).map((room, i) => ({
      name: `engine-rooms-layered-${room}`,
      comment: `Rooms stack ${ROOMS.join(' < ')}: ${room}/ imports no room above it.`,
      severity: 'error',
      from: { path: `^src/engine/${room}/` },
      to: { path: `^src/engine/(${ROOMS.slice(i + 1).join('|')})/` },
    })),
    {
      name: 'console-through-the-client',
      comment: 'The web console (browser code) reaches svc only through the public API, with the client, by its index.ts.',
      severity: 'error',
      from: { path: '^src/console/' },
      to: { path: '^src/', pathNot: ['^src/console/', '^src/client/index\\.ts$'] },
    },
    {
      name: 'console-no-packages',
      comment: 'The web console bundles no npm package (no UI library, nothing fetched at run time).',
      severity: 'error',
      from: { path: '^src/console/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'core'] },
    },
    {
      name: 'console-is-a-leaf',
      comment: 'The web console is an entry of its own (bundled by scripts/build-console.ts): nothing in src/ imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/console/' },
      to: { path: '^src/console/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'engine-rooms-through-entries',
      comment: "One room of the engine reaches another only through that room's index.ts.",
      severity: 'error',
      from: { path: '^src/engine/([^/]+)/' },
      to: { path: '^src/engine/[^/]+/.+', pathNot: ['^src/engine/$1/', '^src/engine/[^/]+/index\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.d.ts'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
