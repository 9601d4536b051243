// Server configuration, read only from the SVC_* variables of the spec plus SVC_ENRICH_TIMEOUT (the
// bound on each call to the enrichment endpoint), SVC_MCP_WRITES (the MCP endpoint's writing tools),
// SVC_METRICS_KEY (the token of /metrics), SVC_STORE_IDLE_S (when an unused store closes),
// SVC_SNAPSHOT_QUIET_S (when a store no write changed leaves its index on disk),
// SVC_THREADS (the engine's worker threads), SVC_ENGINE_MEMORY_MB (the most memory the engine's
// indexes may take), SVC_ENGINE_RELOCATE_MB (when the engine's memory is relocated),
// SVC_ENGINE_DISCARD (whether its free pages are given back in place), SVC_ENGINE_HUGE_PAGES
// (whether its large blocks ask for huge pages), and the
// cluster's SVC_NATS_URL, SVC_REPLICAS, SVC_NODE_TTL_S and SVC_NODE_ID (docs/cluster.md); the port
// comes from the `--port` flag. Relative
// paths resolve against the working directory, except the default model, which is the folder
// shipped in this package's models/.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './version.js';

export { PACKAGE_ROOT, VERSION } from './version.js';

/** The model folder shipped in models/; named by models/DEFAULT (one line: the folder name). */
export function defaultModelUri(): string {
  const name = readFileSync(path.join(PACKAGE_ROOT, 'models', 'DEFAULT'), 'utf8').trim();
  return path.join(PACKAGE_ROOT, 'models', name);
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  modelUri: string;
  modelCache: string;
  dataDir: string;
  project: string;
  logLevel: LogLevel;
  /** Optional LLM enrichment; `timeoutMs` bounds every call to the endpoint (SVC_ENRICH_TIMEOUT seconds, default 30). */
  enrich: { url?: string; model?: string; visionModel?: string; apiKey?: string; timeoutMs: number };
  /** Whether /v1/mcp offers the writing tools (SVC_MCP_WRITES=1; default off: an agent never writes). */
  mcpWrites: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <SVC_METRICS_KEY>`; unset, it is open. */
  metricsKey?: string;
  /** Seconds a store no request used stays open (SVC_STORE_IDLE_S, default 600); 0 keeps stores open once opened. */
  storeIdleS: number;
  /** Seconds after its last write an open store's index is written beside its database (SVC_SNAPSHOT_QUIET_S, default 60); 0: only when it closes. */
  snapshotQuietS: number;
  /** The engine's worker threads (SVC_THREADS); undefined: one per core. */
  threads?: number;
  /** The most bytes the engine's memories (the open stores' indexes and the model) may span (SVC_ENGINE_MEMORY_MB); undefined: the engine's default (REGIONS). */
  engineMemoryBytes?: number;
  /** Idle engine memory worth a relocation (SVC_ENGINE_RELOCATE_MB); undefined: the engine's default (32 MiB); 0: never relocated. */
  engineRelocateBytes?: number;
  /** Whether free pages of the engine's memory are given back in place (SVC_ENGINE_DISCARD, default 1; the native helper must be built). */
  engineDiscard: boolean;
  /** Whether the engine's large blocks ask for huge pages (SVC_ENGINE_HUGE_PAGES, default 1; the native helper must be built). */
  engineHugePages: boolean;
  /** The cluster (SVC_NATS_URL or --cluster); undefined: a single node, as before. */
  cluster?: ClusterConfig;
}

export interface ClusterConfig {
  /** NATS server URLs (nats://host:port), at least one. */
  urls: string[];
  /** Copies of each store on distinct svc nodes (SVC_REPLICAS, default 2). */
  replicas: number;
  /** Seconds without a heartbeat after which a node is gone and its stores are placed elsewhere (SVC_NODE_TTL_S, default 5). */
  nodeTtlS: number;
  /** This node's id (SVC_NODE_ID); undefined: the one kept in the data dir, made at first start. */
  nodeId?: string;
}

/** The cluster configuration of a comma-separated list of NATS URLs and the SVC_ cluster variables. */
export function clusterConfig(list: string, env: NodeJS.ProcessEnv = process.env): ClusterConfig {
  const urls = list
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const bad = urls.find((u) => !/^(nats|tls):\/\/[^\s/]+$/.test(u));
  if (urls.length === 0 || bad)
    throw new ConfigError(`SVC_NATS_URL (or --cluster) '${bad ?? list}' is not a comma-separated list of nats://host:port URLs`);
  const replicas = Number(env.SVC_REPLICAS || 2);
  if (!(Number.isInteger(replicas) && replicas >= 1 && replicas <= 16))
    throw new ConfigError(`SVC_REPLICAS=${env.SVC_REPLICAS} is not a whole number of copies of each store from 1 to 16 (default 2)`);
  const ttl = Number(env.SVC_NODE_TTL_S || 5);
  if (!(Number.isFinite(ttl) && ttl >= 2 && ttl <= 3600))
    throw new ConfigError(`SVC_NODE_TTL_S=${env.SVC_NODE_TTL_S} is not a number of seconds from 2 to 3600 (default 5)`);
  const nodeId = env.SVC_NODE_ID || undefined;
  if (nodeId !== undefined && !NAME_RE.test(nodeId))
    throw new ConfigError(`SVC_NODE_ID=${nodeId} is not a node id: 1 to 64 characters of [a-z0-9-_]`);
  return { urls, replicas, nodeTtlS: ttl, nodeId };
}

/** The variables `svc serve` reads, with their defaults, as `svc serve --help` lists them (docs/configuration.md says more). */
export const SERVER_VARIABLES: ReadonlyArray<{ name: string; default: string; meaning: string }> = [
  { name: 'SVC_DATA_DIR', default: './svc-data', meaning: 'all persisted data (stores, API keys, the model cache)' },
  { name: 'SVC_MODEL_URI', default: 'the shipped model', meaning: 'model version folder: a path, s3://… or gs://…' },
  { name: 'SVC_MODEL_CACHE', default: '$SVC_DATA_DIR/.model-cache', meaning: 'where a remote model is cached' },
  { name: 'SVC_PROJECT', default: 'default', meaning: 'the project of requests that name none (with --no-auth)' },
  { name: 'SVC_LOG', default: 'info', meaning: 'log level: fatal, error, warn, info, debug, trace, silent' },
  { name: 'SVC_ENRICH_MODEL', default: 'unset', meaning: 'an LLM that writes answers (answer: true) and reads images' },
  { name: 'SVC_VISION_MODEL', default: '$SVC_ENRICH_MODEL', meaning: 'the model that transcribes images and scanned PDFs' },
  { name: 'SVC_ENRICH_URL', default: 'https://api.openai.com/v1', meaning: 'OpenAI-compatible endpoint of both models' },
  { name: 'SVC_ENRICH_API_KEY', default: 'unset', meaning: 'bearer token sent to SVC_ENRICH_URL' },
  { name: 'SVC_ENRICH_TIMEOUT', default: '30', meaning: 'seconds one call to the enrichment endpoint may take' },
  { name: 'SVC_MCP_WRITES', default: '0', meaning: '1 offers MCP clients of /v1/mcp the writing tools' },
  { name: 'SVC_METRICS_KEY', default: 'unset: open', meaning: 'the bearer token GET /metrics requires' },
  { name: 'SVC_STORE_IDLE_S', default: '600', meaning: 'seconds an unused store stays open (0: until shutdown)' },
  {
    name: 'SVC_SNAPSHOT_QUIET_S',
    default: '60',
    meaning: "seconds after an open store's last write its index is written beside its database (0: only when it closes)",
  },
  { name: 'SVC_THREADS', default: 'one per core', meaning: "the engine's worker threads (each holds a heap of its own)" },
  {
    name: 'SVC_ENGINE_MEMORY_MB',
    default: "3/4 of the process's memory bound, at least 4096",
    meaning: "the most memory the open stores' indexes and the model may take",
  },
  {
    name: 'SVC_ENGINE_RELOCATE_MB',
    default: '32',
    meaning: 'once the engine is idle, the memory written and no longer used that is worth copying the rest to give it back (0: never)',
  },
  {
    name: 'SVC_ENGINE_DISCARD',
    default: '1',
    meaning: "1 gives the engine's free memory pages back to the system as they are freed (with the native helper; 0: by relocation only)",
  },
  {
    name: 'SVC_ENGINE_HUGE_PAGES',
    default: '1',
    meaning: "1 asks the system for huge pages under the engine's blocks of 32 MiB or more (with the native helper; 0: never)",
  },
  { name: 'SVC_NATS_URL', default: 'unset: one node', meaning: 'NATS servers of a cluster, comma-separated (as --cluster)' },
  { name: 'SVC_REPLICAS', default: '2', meaning: 'in a cluster, copies of each store on distinct svc nodes' },
  { name: 'SVC_NODE_TTL_S', default: '5', meaning: 'in a cluster, seconds without a heartbeat before a node is gone' },
  { name: 'SVC_NODE_ID', default: 'kept in the data dir', meaning: "in a cluster, this node's id" },
];

/**
 * SVC_ENGINE_MEMORY_MB's range: the model alone takes tens of MB; past the kernels' 4 GiB memory,
 * segment images lie in further memories (engine/runtime/regions.ts), up to the bound (1 TiB here).
 */
export const ENGINE_MEMORY_MB = { min: 64, max: 2 ** 20 } as const;

/** SVC_ENGINE_RELOCATE_MB's most: a relocation moves the kernels' memory only, which holds 4 GiB at most. */
export const ENGINE_RELOCATE_MB_MAX = 4096;

/** The most worker threads SVC_THREADS may ask for. */
export const MAX_THREADS = 256;

export const NAME_RE = /^[a-z0-9_-]{1,64}$/;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** A variable that is 0 or 1 (`fallback` unset); anything else is refused, with what 1 and 0 do (`meaning`). */
function flag(env: NodeJS.ProcessEnv, name: string, fallback: '0' | '1', meaning: string): boolean {
  const v = env[name] ?? fallback;
  if (v !== '0' && v !== '1') throw new ConfigError(`${name}=${v} is not 0 or 1 (${meaning})`);
  return v === '1';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = (env.SVC_LOG ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`SVC_LOG=${env.SVC_LOG} is not a log level; use one of ${LOG_LEVELS.join(', ')}`);
  }
  const project = env.SVC_PROJECT ?? 'default';
  if (!NAME_RE.test(project)) {
    throw new ConfigError(`SVC_PROJECT=${project} is not a valid project name: 1 to 64 characters of [a-z0-9-_]`);
  }
  const dataDir = path.resolve(env.SVC_DATA_DIR ?? './svc-data');
  const modelUri = env.SVC_MODEL_URI || defaultModelUri();
  const isRemote = /^(s3|gs):\/\//.test(modelUri);
  const discard = flag(env, 'SVC_ENGINE_DISCARD', '1', '1 gives free engine memory back in place; 0 only by relocation');
  const hugePages = flag(env, 'SVC_ENGINE_HUGE_PAGES', '1', "1 asks for huge pages under the engine's large blocks; 0 never");
  const mcpWrites = flag(env, 'SVC_MCP_WRITES', '0', '1 lets MCP clients ingest and delete documents');
  const timeout = Number(env.SVC_ENRICH_TIMEOUT || 30);
  if (!(timeout > 0 && timeout <= 600)) {
    throw new ConfigError(`SVC_ENRICH_TIMEOUT=${env.SVC_ENRICH_TIMEOUT} is not a number of seconds from 0 to 600 (default 30)`);
  }
  const idle = Number(env.SVC_STORE_IDLE_S || 600);
  if (!(Number.isFinite(idle) && idle >= 0)) {
    throw new ConfigError(
      `SVC_STORE_IDLE_S=${env.SVC_STORE_IDLE_S} is not a number of seconds, 0 or more (default 600; 0 keeps stores open)`,
    );
  }
  const quiet = Number(env.SVC_SNAPSHOT_QUIET_S || 60);
  if (!(Number.isFinite(quiet) && quiet >= 0)) {
    throw new ConfigError(
      `SVC_SNAPSHOT_QUIET_S=${env.SVC_SNAPSHOT_QUIET_S} is not a number of seconds, 0 or more (default 60; 0 writes a store's index only when it closes)`,
    );
  }
  const threads = env.SVC_THREADS ? Number(env.SVC_THREADS) : undefined;
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS)) {
    throw new ConfigError(
      `SVC_THREADS=${env.SVC_THREADS} is not a whole number of worker threads from 1 to ${MAX_THREADS} (default: one per core)`,
    );
  }
  const memoryMb = env.SVC_ENGINE_MEMORY_MB ? Number(env.SVC_ENGINE_MEMORY_MB) : undefined;
  if (memoryMb !== undefined && !(Number.isInteger(memoryMb) && memoryMb >= ENGINE_MEMORY_MB.min && memoryMb <= ENGINE_MEMORY_MB.max)) {
    throw new ConfigError(
      `SVC_ENGINE_MEMORY_MB=${env.SVC_ENGINE_MEMORY_MB} is not a whole number of megabytes from ${ENGINE_MEMORY_MB.min} to ${ENGINE_MEMORY_MB.max} (default: 3/4 of the process's memory bound, at least 4096)`,
    );
  }
  const relocateMb = env.SVC_ENGINE_RELOCATE_MB ? Number(env.SVC_ENGINE_RELOCATE_MB) : undefined;
  if (relocateMb !== undefined && !(Number.isInteger(relocateMb) && relocateMb >= 0 && relocateMb <= ENGINE_RELOCATE_MB_MAX)) {
    throw new ConfigError(
      `SVC_ENGINE_RELOCATE_MB=${env.SVC_ENGINE_RELOCATE_MB} is not a whole number of megabytes from 0 to ${ENGINE_RELOCATE_MB_MAX} (default 32; 0 never relocates)`,
    );
  }
  return {
    modelUri: isRemote ? modelUri : path.resolve(modelUri),
    modelCache: path.resolve(env.SVC_MODEL_CACHE ?? path.join(dataDir, '.model-cache')),
    dataDir,
    project,
    logLevel: logLevel as LogLevel,
    enrich: {
      url: env.SVC_ENRICH_URL || undefined,
      model: env.SVC_ENRICH_MODEL || undefined,
      visionModel: env.SVC_VISION_MODEL || undefined,
      apiKey: env.SVC_ENRICH_API_KEY || undefined,
      timeoutMs: Math.round(timeout * 1000),
    },
    mcpWrites,
    engineDiscard: discard,
    engineHugePages: hugePages,
    metricsKey: env.SVC_METRICS_KEY || undefined,
    storeIdleS: idle,
    snapshotQuietS: quiet,
    threads,
    engineMemoryBytes: memoryMb === undefined ? undefined : memoryMb * 2 ** 20,
    engineRelocateBytes: relocateMb === undefined ? undefined : relocateMb * 2 ** 20,
    cluster: env.SVC_NATS_URL ? clusterConfig(env.SVC_NATS_URL, env) : undefined,
  };
}
