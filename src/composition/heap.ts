import v8 from 'node:v8';

/**
 * How far V8 lets the heap grow above what survived the last full collection before collecting
 * again. Left to itself, V8 picks a factor of up to 4 when the process is busy, so under a burst of
 * concurrent estimates a heap whose live part is small grows to several times it, past the memory
 * budget the service has beside its database. 100% keeps the heap near twice its live part with
 * as many estimates a second; lower values save a little more memory but cost throughput and tail
 * latency (docs/decisions/0008-heap-growing-percent.md). The flag is read at every collection, so
 * setting it at start-up takes effect; it is not a heap limit, so no request can run out of heap
 * because of it. HEAP_GROWING_PERCENT=0 leaves V8's own choice.
 */
export function setHeapGrowing(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
