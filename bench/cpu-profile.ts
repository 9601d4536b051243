// Main-thread CPU profile of a stretch of code through node:inspector (V8's sampling profiler), with
// self time summed per function (name and source location), so a report can say which functions
// a search spends its JavaScript time in. Invariants: samples only between start() and stop();
// self times are sample counts times the sampling interval (an estimate, like any sampling
// profile); samples inside node:inspector itself are dropped; functions are named by name and file
// (tsx's transpiled line numbers are not the source's); WebAssembly frames appear as wasm-function[i].
import { Session } from 'node:inspector/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTime {
  fn: string;
  ms: number;
  share: number;
}

export class CpuProfile {
  private readonly session = new Session();

  async start(intervalUs = 200): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await this.session.post('Profiler.start');
  }

  /** Stops and returns the functions with the most self time. */
  async stop(top = 15): Promise<SelfTime[]> {
    const { profile } = (await this.session.post('Profiler.stop')) as unknown as { profile: Profile };
    this.session.disconnect();
    const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    // Samples inside the inspector's own calls (Profiler.stop serialising the profile) are not ours.
    const own = new Map<number, boolean>();
    const isOwn = (id: number): boolean => {
      let v = own.get(id);
      if (v === undefined) {
        const n = byNode.get(id)!;
        const p = parent.get(id);
        v = !n.callFrame.url.startsWith('node:inspector') && (p === undefined || isOwn(p));
        own.set(id, v);
      }
      return v;
    };
    const self = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      if (!isOwn(id)) return;
      const dt = (profile.timeDeltas[i] ?? 0) / 1000;
      const f = byNode.get(id)!.callFrame;
      const name = `${f.functionName || '(anonymous)'} ${f.url ? path.basename(f.url) : ''}`.trim();
      self.set(name, (self.get(name) ?? 0) + dt);
      total += dt;
    });
    return [...self]
      .map(([fn, ms]) => ({ fn, ms, share: ms / Math.max(total, 1e-9) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top);
  }
}
