// A search result without its timings (latency_ms, and each trace step's ms), which differ between
// any two runs: what two searches that must answer alike are compared on.
export function untimed<T extends { latency_ms?: number; trace?: Array<{ ms?: number }> }>(r: T): Omit<T, 'latency_ms'> {
  const { latency_ms: _ms, ...rest } = r;
  return rest.trace ? { ...rest, trace: rest.trace.map(({ ms: _stepMs, ...step }) => step) } : rest;
}
