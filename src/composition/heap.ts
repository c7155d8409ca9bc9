import v8 from 'node:v8';

/**
 * How far V8 lets the heap grow above what survived the last full collection before collecting
 * again. Left to itself, V8 picks a factor of up to 4 when the process is busy: under 50
 * concurrent estimates the heap held 166 MB of which ~50 MB was live, and the process reached
 * 316 MB (issue 13: node + database ≤ 300 MB under the bench). 100% keeps the server near 175 MB
 * since it runs without tsx's loader (268 MB with V8's choice), with as many estimates a second
 * in the runs measured (0.27–0.28× against 0.27×); 50% saved another ~25 MB but cost ~15% of the
 * estimates a second and pushed their p99 above 4× the baseline's (README, "What changed for
 * speed"). The flag is read at every collection, so setting it at start-up takes effect; it is not
 * a heap limit, so no request can run out of heap because of it. HEAP_GROWING_PERCENT=0 leaves
 * V8's own choice.
 */
export function setHeapGrowing(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
