/**
 * The fleet: API processes and workers as `npm start` and `npm run worker` run them (the built
 * JavaScript under plain node), on one PostgreSQL database and one Redis, killed with SIGKILL and
 * started again on the same port. A process that exits without being killed is recorded: the test
 * fails on it.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Instance } from './client.js';
import { pause, rawRequest } from './client.js';
import { freePort, startEntry } from '../support/processes.js';

const OUTPUT_LINES_KEPT = 200;
const WARNINGS_KEPT = 60;
const WARNING = /"level":(4|5|6)\d\b/;
/** How long a process restarted after a kill has to serve again. */
const RESTART_MS = 30_000;
/** Written into a member's output at each start, so that a worker's start line is looked for in its current life only. */
const LIFE_MARK = '--- started ---';
const thisLife = (output: string[]): string[] => output.slice(output.lastIndexOf(LIFE_MARK) + 1);

interface Member {
  name: string;
  entry: 'src/main.ts' | 'src/worker/main.ts';
  env: NodeJS.ProcessEnv;
  child?: ChildProcess;
  output: string[];
  /** The API's view for the client (workers have none). */
  instance?: Instance;
  port?: number;
  killing: boolean;
}

export class Fleet {
  readonly instances: Instance[] = [];
  private readonly members: Member[] = [];
  /** Processes that exited without being killed, or did not serve again after a kill. */
  readonly unexpectedExits: string[] = [];
  readonly kills = { api: 0, worker: 0 };
  /** The processes' warning and error log lines (pino levels 40 and above), grouped by process and message, with counts. */
  private readonly warningCounts = new Map<string, number>();
  /** When each kill happened, to set beside the client's findings. */
  readonly killTimes: string[] = [];
  /** Milliseconds from a kill to the successor serving (API: /healthz 200; worker: its start line). */
  readonly restartMs: number[] = [];

  constructor(private readonly env: { api: NodeJS.ProcessEnv; worker: NodeJS.ProcessEnv }) {}

  /** Adds `apis` API processes (each on a free port) and `workers` workers; nothing starts yet. */
  async plan(apis: number, workers: number): Promise<void> {
    for (let i = 1; i <= apis; i++) {
      const port = await freePort();
      const instance: Instance = { name: `api${i}`, url: `http://127.0.0.1:${port}`, up: false, generation: 0 };
      this.instances.push(instance);
      this.members.push({
        name: instance.name,
        entry: 'src/main.ts',
        env: { ...this.env.api, PORT: String(port) },
        output: [],
        instance,
        port,
        killing: false,
      });
    }
    for (let i = 1; i <= workers; i++) this.members.push({ name: `worker${i}`, entry: 'src/worker/main.ts', env: this.env.worker, output: [], killing: false });
  }

  /** Starts every member at the same instant; resolves with the names of those that came up within `timeoutMs`. */
  async startAll(timeoutMs: number): Promise<{ up: string[]; down: string[] }> {
    for (const member of this.members) this.spawn(member);
    const results = await Promise.all(
      this.members.map((member) =>
        this.ready(member, timeoutMs).then(
          () => true,
          () => false,
        ),
      ),
    );
    return {
      up: this.members.filter((_m, i) => results[i]).map((m) => m.name),
      down: this.members.filter((_m, i) => !results[i]).map((m) => m.name),
    };
  }

  /** Starts again every member that is not running (after a failed cold start), and waits for each. */
  async restartStopped(timeoutMs: number): Promise<void> {
    for (const member of this.members) {
      if (!running(member.child)) {
        this.spawn(member);
        await this.ready(member, timeoutMs);
      }
    }
  }

  /** SIGKILLs the `index`th API (or worker), waits `downMs`, starts it again and waits until it serves. */
  async killAndRestart(kind: 'api' | 'worker', index: number, downMs: number): Promise<void> {
    const member = this.members.filter((m) => (kind === 'api') === Boolean(m.instance))[index]!;
    member.killing = true;
    if (member.instance) {
      member.instance.up = false;
      member.instance.generation++;
    }
    const child = member.child!;
    if (running(child)) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    member.killing = false;
    this.kills[kind]++;
    this.killTimes.push(`${member.name} ${new Date().toISOString()}`);
    const killedAt = Date.now();
    await pause(downMs);
    this.spawn(member);
    try {
      await this.ready(member, RESTART_MS);
      this.restartMs.push(Date.now() - killedAt - downMs);
    } catch (error) {
      this.unexpectedExits.push(`${member.name} after its SIGKILL: ${(error as Error).message}:\n${thisLife(member.output).slice(-20).join('\n')}`);
    }
  }

  /** SIGTERM to every member; waits for each to exit. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.members.map(async (member) => {
        member.killing = true;
        if (member.instance) member.instance.up = false;
        if (running(member.child)) {
          const exited = once(member.child!, 'exit');
          member.child!.kill('SIGTERM');
          const timer = setTimeout(() => member.child!.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(timer);
        }
      }),
    );
  }

  /** The warnings as `count × process: message (error)`. */
  warnings(): string[] {
    return [...this.warningCounts].map(([what, n]) => `${n} × ${what}`);
  }

  private warn(name: string, line: string): void {
    let what = line.slice(0, 300);
    try {
      const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } | string };
      what = `${entry.msg ?? ''} (${typeof entry.err === 'string' ? entry.err : (entry.err?.message ?? '')})`;
    } catch {
      // not JSON (a stack trace on stderr): kept as is
    }
    const key = `${name}: ${what}`;
    if (this.warningCounts.has(key) || this.warningCounts.size < WARNINGS_KEPT) this.warningCounts.set(key, (this.warningCounts.get(key) ?? 0) + 1);
  }

  /** The last lines a member wrote, for a failure's message. */
  outputOf(name: string): string {
    return (this.members.find((m) => m.name === name)?.output ?? []).slice(-40).join('\n');
  }

  private spawn(member: Member): void {
    const started = startEntry(member.entry, member.env);
    member.child = started.child;
    member.output.push(LIFE_MARK);
    const keep = (chunk: Buffer) => {
      const lines = chunk.toString().split('\n').filter(Boolean);
      for (const line of lines) if (WARNING.test(line)) this.warn(member.name, line);
      member.output.push(...lines);
      if (member.output.length > OUTPUT_LINES_KEPT) member.output.splice(0, member.output.length - OUTPUT_LINES_KEPT);
    };
    started.child.stdout!.on('data', keep);
    started.child.stderr!.on('data', keep);
    started.child.once('exit', (code, signal) => {
      if (member.instance) member.instance.up = false;
      if (!member.killing) this.unexpectedExits.push(`${member.name} exited by itself (${code ?? signal}):\n${member.output.slice(-20).join('\n')}`);
    });
  }

  /** Resolves when the member serves (API: /healthz answers 200; worker: it logged its start). */
  private async ready(member: Member, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const child = member.child!;
    while (Date.now() < deadline) {
      if (!running(child)) throw new Error(`${member.name} exited while starting`);
      if (member.instance ? await healthy(member.instance.url) : thisLife(member.output).some((line) => line.includes('worker started'))) {
        if (member.instance) member.instance.up = true;
        return;
      }
      await pause(150);
    }
    throw new Error(`${member.name} did not come up within ${timeoutMs} ms`);
  }
}

const running = (child: ChildProcess | undefined): child is ChildProcess => Boolean(child) && child!.exitCode === null && child!.signalCode === null;

const healthy = (url: string): Promise<boolean> =>
  rawRequest(`${url}/healthz`, 'GET', {}, undefined, 2000).then(
    (answer) => answer.status === 200,
    () => false,
  );
