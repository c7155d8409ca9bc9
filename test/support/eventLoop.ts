/**
 * How long work held this process's event loop. A timer ticks every RESOLUTION_MS; between two ticks
 * the loop was busy, or its thread was off its core, for as long as the tick was late. On a machine
 * shared with other processes a tick is late mostly because the thread waits for a core (or for
 * threads of its own, the garbage collector's helpers, that wait for one), which says nothing of the
 * code under test. So each gap is measured twice: on the wall clock (the stall a client saw here,
 * now) and by the kernel's per-thread accounting (/proc/self/task/<tid>/schedstat: nanoseconds on
 * a core), the time the event loop's thread ran within it: the work that held the loop, what a
 * request arriving then waits for on a machine with a core to spare. Where the kernel does not say
 * (not Linux, not the main thread), the wall clock's gap counts whole.
 */
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const RESOLUTION_MS = 10;

export interface LoopHolds {
  /** The longest gap between two ticks: the event loop's longest stall as a client would see it here, now. */
  longestStallMs: number;
  /** The most the event loop's thread ran within one gap: the longest the work held the loop. */
  longestHoldMs: number;
  /** Of the longest stall, how long the thread ran, and how long it waited for a core. */
  ranInLongestStallMs: number;
  waitedInLongestStallMs: number;
}

/** Nanoseconds the event loop's thread has run and waited for a core so far, or undefined where the kernel does not say. */
function schedstat(): [number, number] | undefined {
  // The event loop's thread is the process's main thread (tid = pid) when this runs on it.
  if (!isMainThread) return undefined;
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return run !== undefined && wait !== undefined ? [run, wait] : undefined;
  } catch {
    return undefined;
  }
}

/** `work`, with the event loop watched while it runs. */
export async function watchEventLoop<T>(work: () => Promise<T>): Promise<{ result: T; holds: LoopHolds }> {
  const holds: LoopHolds = { longestStallMs: 0, longestHoldMs: 0, ranInLongestStallMs: 0, waitedInLongestStallMs: 0 };
  let last = performance.now();
  let lastStat = schedstat();
  const tick = () => {
    const now = performance.now();
    const stat = schedstat();
    const gapMs = now - last;
    const ranMs = stat && lastStat ? (stat[0] - lastStat[0]) / 1e6 : gapMs;
    const waitedMs = stat && lastStat ? (stat[1] - lastStat[1]) / 1e6 : 0;
    if (gapMs > holds.longestStallMs) Object.assign(holds, { longestStallMs: gapMs, ranInLongestStallMs: ranMs, waitedInLongestStallMs: waitedMs });
    holds.longestHoldMs = Math.max(holds.longestHoldMs, ranMs);
    [last, lastStat] = [now, stat];
  };
  const timer = setInterval(tick, RESOLUTION_MS);
  try {
    const result = await work();
    tick();
    return { result, holds };
  } finally {
    clearInterval(timer);
  }
}

/** The figures, for an assertion's message. */
export const describeHolds = (holds: LoopHolds): string =>
  `the work held the event loop at most ${holds.longestHoldMs.toFixed(1)} ms at a time; its longest stall on the wall clock ${holds.longestStallMs.toFixed(1)} ms ` +
  `(${holds.ranInLongestStallMs.toFixed(1)} ms of it running, ${holds.waitedInLongestStallMs.toFixed(1)} ms waiting for a core)`;
