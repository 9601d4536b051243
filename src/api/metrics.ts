// The server's Prometheus metrics (prom-client), served at GET /metrics in the text exposition
// format: requests and their latency by route (the OpenAPI path, not the URL: ids never become
// labels) and status; searches' hops used, confidence and engine time; documents ingested; engine
// tasks in flight (the worker queue); the engine's shared memory (reserved, allocated, limit); per
// store, its documents and bytes, and its passages and index bytes while open; the stores open; and
// prom-client's
// process metrics (resident memory, heap, event-loop lag, GC). Gauges are read when scraped.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { SearchResult } from '../api-types.js';
import type { Engine } from '../engine/index.js';
import type { StoreEntry, StoreRegistry } from './store-registry.js';

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class ServerMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route (the API path template) and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time from a request to the end of its response, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly hops = new Histogram({
    name: 'svc_search_hops_used',
    help: 'Hops a search used',
    buckets: [1, 2, 3, 4, 5, 6, 7, 8],
    registers: [this.registry],
  });
  private readonly confidence = new Histogram({
    name: 'svc_search_confidence',
    help: 'The confidence a search returned',
    buckets: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
    registers: [this.registry],
  });
  private readonly engineSeconds = new Histogram({
    name: 'svc_search_engine_seconds',
    help: "A search's time in the engine (its latency_ms)",
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly ingested = new Counter({
    name: 'svc_documents_ingested_total',
    help: 'Documents written by ingest requests (a replayed request writes none)',
    registers: [this.registry],
  });

  constructor(
    engine: Pick<Engine, 'pending' | 'memory' | 'assisted'>,
    registry: Pick<StoreRegistry, 'catalog' | 'counts' | 'docs' | 'maintenance'>,
  ) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'svc_engine_tasks_in_flight',
      help: 'Engine tasks (searches, encodings, merges) dispatched to the worker pool and not finished, queued ones included',
      registers: [this.registry],
      collect() {
        this.set(engine.pending);
      },
    });
    new Gauge({
      name: 'svc_engine_memory_bytes',
      help: "The engine's shared memories (the kernels' and the regions of index segments past it): reserved (their size: the high-water mark until a relocation), written (what of it has been written, at most resident), allocated (open stores' indexes, the model, searches' scratch) and limit (an ingest past it is refused with 507)",
      labelNames: ['kind'] as const,
      registers: [this.registry],
      collect() {
        const m = engine.memory;
        this.set({ kind: 'reserved' }, m.reserved);
        this.set({ kind: 'written' }, m.written);
        this.set({ kind: 'allocated' }, m.allocated);
        this.set({ kind: 'limit' }, m.limit);
      },
    });
    new Gauge({
      name: 'svc_engine_memory_regions',
      help: "The engine's shared memories: the kernels' and the regions past it that hold index segments (1 while every segment fits the kernels' memory; a region is made when none has room, and kept)",
      registers: [this.registry],
      collect() {
        this.set(engine.memory.regions);
      },
    });
    new Counter({
      name: 'svc_engine_scan_jobs_total',
      help: "Scan jobs searches spread over the engine's workers (a segment each), and the segments an idle worker ran of them (by)",
      labelNames: ['by'] as const,
      registers: [this.registry],
      collect() {
        const { jobs, helped } = engine.assisted;
        this.reset();
        this.inc({ by: 'posted' }, jobs);
        this.inc({ by: 'helper' }, helped);
      },
    });
    /** A counter read from the engine's memory figures at each scrape. */
    const engineTotal = (name: string, help: string, value: (m: Engine['memory']) => number) =>
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(value(engine.memory));
        },
      });
    engineTotal(
      'svc_engine_memory_relocations_total',
      "Relocations of the engine's memory: its live blocks copied into a fresh memory when idle, giving back what merges and deleted stores left",
      (m) => m.relocations,
    );
    engineTotal(
      'svc_engine_memory_discarded_bytes_total',
      "Bytes of the engine's free memory pages given back to the system in place as blocks were freed (SVC_ENGINE_DISCARD, with the native helper)",
      (m) => m.discarded,
    );
    engineTotal(
      'svc_engine_heap_compacted_bytes_total',
      "Bytes of the engine threads' JavaScript heaps given back to the system by the collections run once the engine is idle (after merges, after the main thread's heap grew, before a relocation)",
      (m) => m.heapCompacted,
    );
    /** A gauge per store of the catalog; `value` undefined leaves a store out. */
    const perStore = (name: string, help: string, value: (e: StoreEntry) => number | undefined) =>
      new Gauge({
        name,
        help,
        labelNames: ['project', 'store'] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const { project, entry } of registry.catalog()) {
            const v = value(entry);
            if (v !== undefined) this.set({ project, store: entry.meta.name }, v);
          }
        },
      });
    perStore('svc_store_documents', 'Documents in a store (a closed one: as of its close)', (e) => registry.docs(e));
    perStore(
      'svc_store_bytes',
      'Bytes of live data a store holds on disk (a closed one: as of its close)',
      (e) => registry.counts(e).bytes,
    );
    perStore('svc_store_passages', 'Live passages in an open store', (e) => e.open?.index.passageCount);
    perStore('svc_store_index_bytes', "Bytes an open store's index takes in the engine's memory", (e) => e.open?.index.memoryBytes);
    perStore(
      'svc_store_segments',
      'Index segments of an open store: a search looks each of its terms and title phrases up in each, and the background merges keep them few',
      (e) => e.open?.index.segmentCount,
    );
    new Counter({
      name: 'svc_store_reopens_total',
      help: 'Stores reopened, once no request held them, to drop the pages of their data file they held mapped in',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(registry.maintenance.reopened);
      },
    });
    new Gauge({
      name: 'svc_stores_open',
      help: 'Stores open (loaded in memory); the others open on their next request',
      registers: [this.registry],
      collect() {
        this.set(registry.catalog().filter((c) => c.entry.open).length);
      },
    });
  }

  /** A search answered (each search of a batch too); a value that is not a finite number is not observed (prom-client would throw). */
  searched(r: SearchResult): void {
    const observe = (h: Histogram, v: number) => Number.isFinite(v) && h.observe(v);
    observe(this.hops, r.hops_used);
    observe(this.confidence, r.confidence);
    observe(this.engineSeconds, r.latency_ms / 1000);
  }

  documentsIngested(n: number): void {
    this.ingested.inc(n);
  }
}
