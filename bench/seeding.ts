/**
 * The seeding's cost to the server's memory: the real server started on an empty database with a
 * world of `beneficiaries` beneficiaries (IBAN, bank, nationality, reference) as its WORLD_FILE,
 * which it seeds in a process of its own, then started again on the seeded database with the same
 * WORLD_FILE (which it only checks). Prints both servers' RSS once ready and settled, and their
 * difference. Figures printed, not asserted.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { log } from './load.js';
import { kbOf } from './processes.js';
import { mbOf } from './report.js';
import { TARGETS } from './targets.js';
import { benchWorld } from './world.js';

export interface SeedingFigures {
  beneficiaries: number;
  worldFileMb: number;
  /** Seconds from the spawn to ready: seeding the empty database, then starting on the seeded one. */
  seedingStartSeconds: number;
  seededStartSeconds: number;
  /** The server's RSS once ready and 2 s later (its peak, VmHWM, in brackets), after seeding and on the seeded database. */
  afterSeeding: { rssMb: number; peakMb: number };
  onSeeded: { rssMb: number; peakMb: number };
  /** The seeding process's own peak RSS, from the server's log line. */
  seedingProcessPeakMb: number | null;
}

/** Starts the server on the scenario's own database with `worldFile`, answering when it is ready. */
export type LaunchOnSeedDatabase = (worldFile: string) => Promise<{ pid: number; stop: () => Promise<void>; log: string }>;

const SETTLE_MS = 2000;

async function startAndRead(launch: LaunchOnSeedDatabase, worldFile: string) {
  const started = performance.now();
  const server = await launch(worldFile);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const memory = { rssMb: mbOf(kbOf(server.pid, 'VmRSS')), peakMb: mbOf(kbOf(server.pid, 'VmHWM')) };
  await server.stop();
  return { seconds, memory, log: server.log };
}

export async function measureSeeding(
  tmp: string,
  beneficiaries: number,
  launch: LaunchOnSeedDatabase,
  readLog: (file: string) => string,
): Promise<SeedingFigures> {
  const worldFile = path.join(tmp, `world-${beneficiaries}.json`);
  const text = JSON.stringify(benchWorld(beneficiaries));
  await writeFile(worldFile, text);
  log(`seeding: a world of ${beneficiaries} beneficiaries (${mbOf(Buffer.byteLength(text) / 1024)} MB), the server started on an empty database`);
  const first = await startAndRead(launch, worldFile);
  log(`seeding: ready after ${first.seconds} s, RSS ${first.memory.rssMb} MB (peak ${first.memory.peakMb}); started again on the seeded database`);
  const second = await startAndRead(launch, worldFile);
  const peak = /"seedingPeakRssMb":(\d+)/.exec(readLog(first.log))?.[1];
  const figures: SeedingFigures = {
    beneficiaries,
    worldFileMb: mbOf(Buffer.byteLength(text) / 1024),
    seedingStartSeconds: first.seconds,
    seededStartSeconds: second.seconds,
    afterSeeding: first.memory,
    onSeeded: second.memory,
    seedingProcessPeakMb: peak ? Number(peak) : null,
  };
  log(
    `seeding: server RSS ${figures.afterSeeding.rssMb} MB after seeding, ${figures.onSeeded.rssMb} MB on the seeded database ` +
      `(difference ${figures.afterSeeding.rssMb - figures.onSeeded.rssMb} MB, target within ${TARGETS.seedingRssMb.value} MB); the seeding process's peak ${figures.seedingProcessPeakMb ?? '?'} MB`,
  );
  return figures;
}
