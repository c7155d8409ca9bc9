import { appendFile, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BankEntry, BankToCustomerMessage, PartnerAccountBookingsReader } from '../../../domain/bank/bankBooks.js';
import { PRIVATE_FILE_MODE, ensurePrivateFolder, exists } from './files.js';
import { type SimulatedAccount, creditEntry, statement } from './simulatedBookings.js';

/** Where an account's statements stand: the next period's start and its opening balance (unknown before the first). */
interface AccountState {
  account: SimulatedAccount;
  from: string;
  opening: string | null;
}

/** A statement ready to drop in the service's inbox as `<msgId>.xml`. */
export interface DueStatement {
  msgId: string;
  xml: string;
  entries: number;
}

/**
 * The simulated bank's end-of-day statements (camt.053), one per account per period of `periodMs`
 * (a day by default; periods start at multiples of it since the epoch, so a day is a UTC day). It
 * keeps its memory on disk in `dir`: per account, the entries it has notified (camt.054) and not yet
 * stated, and where its statements stand, so a restarted simulator goes on where it stopped.
 *
 * Its own bookings are what it executed and returned; what arrives in the account from elsewhere
 * (a payroll's funds moved into the bank, a funding) and the first opening balance it reads from
 * the service's ledger through `bookings` (a real bank knows its own books; the simulated one borrows
 * the service's, see docs/bank-files.md). Without it the first opening balance is zero and only its
 * own bookings appear. Later opening balances are the previous closing balance, as at a bank.
 */
export class SimulatedStatements {
  constructor(
    private readonly dir: string,
    private readonly periodMs: number,
    private readonly bookings: PartnerAccountBookingsReader | undefined,
  ) {}

  /** Notes the entries of a notification the bank has sent, for its accounts' next statements (once each, by AcctSvcrRef). */
  async record(message: BankToCustomerMessage): Promise<void> {
    await ensurePrivateFolder(this.dir);
    for (const report of message.reports) {
      const { iban, currency } = report.account;
      if (!iban || !currency) continue;
      const key = keyOf({ iban, currency });
      const noted = new Set((await this.journal(key)).map((entry) => entry.accountServicerReference));
      const entries = report.entries.filter((entry) => !noted.has(entry.accountServicerReference));
      if (entries.length === 0) continue;
      if (!(await exists(this.stateFile(key)))) {
        const first = Date.parse(entries[0]!.bookingDate ?? message.createdAt);
        await this.save(key, { account: { iban, currency }, from: new Date(this.periodStart(first)).toISOString(), opening: null });
      }
      await appendFile(this.journalFile(key), entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''), { mode: PRIVATE_FILE_MODE });
    }
  }

  /** The statements of every period that has ended by `now` and moved money, each account's in order. */
  async due(now: Date): Promise<DueStatement[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const statements: DueStatement[] = [];
    for (const key of names.filter((name) => name.endsWith('.state.json')).map((name) => name.slice(0, -'.state.json'.length))) {
      for (let state = await this.load(key); Date.parse(state.from) + this.periodMs <= now.getTime(); state = await this.load(key)) {
        const written = await this.close(key, state, now);
        if (written) statements.push(written);
      }
    }
    return statements;
  }

  /** Closes one period: its statement (undefined when nothing moved), the journal cut, the state moved on. */
  private async close(key: string, state: AccountState, now: Date): Promise<DueStatement | undefined> {
    const from = new Date(state.from);
    const to = new Date(from.getTime() + this.periodMs);
    const bookings = this.bookings ? await this.bookings(state.account, from, to) : null;
    const opening = state.opening ?? bookings?.balanceBefore ?? '0';
    // Everything notified and booked before the end of the period, a late notification included.
    const stated: BankEntry[] = [];
    const kept: BankEntry[] = [];
    for (const entry of await this.journal(key)) (Date.parse(entry.bookingDate ?? '') < to.getTime() ? stated : kept).push(entry);
    const credits = (bookings?.credits ?? []).map((credit) => creditEntry(state.account, credit));
    const entries = [...credits, ...stated].sort((a, b) => Date.parse(a.bookingDate ?? '') - Date.parse(b.bookingDate ?? ''));
    const written = entries.length > 0 ? statement({ account: state.account, from, to, opening, entries, createdAt: now }) : undefined;
    await writeFile(this.journalFile(key), kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''), { mode: PRIVATE_FILE_MODE });
    const next = written || kept.length > 0 ? to : await this.quietUntil(state.account, to, now);
    await this.save(key, { account: state.account, from: next.toISOString(), opening: written?.closing ?? opening });
    return written && { msgId: written.msgId, xml: [...written.chunks].join(''), entries: entries.length };
  }

  /** After a quiet period, the start of the next one that may hold money moving: the current period when nothing arrived since. */
  private async quietUntil(account: SimulatedAccount, from: Date, now: Date): Promise<Date> {
    const current = new Date(this.periodStart(now.getTime()));
    if (current <= from) return from;
    const since = this.bookings ? await this.bookings(account, from, current) : null;
    return since && since.credits.length > 0 ? from : current;
  }

  private periodStart(at: number): number {
    return Math.floor(at / this.periodMs) * this.periodMs;
  }

  private async journal(key: string): Promise<BankEntry[]> {
    const text = await readFile(this.journalFile(key), 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as BankEntry);
  }

  private async load(key: string): Promise<AccountState> {
    return JSON.parse(await readFile(this.stateFile(key), 'utf8')) as AccountState;
  }

  private async save(key: string, state: AccountState): Promise<void> {
    await writeFile(this.stateFile(key), JSON.stringify(state), { mode: PRIVATE_FILE_MODE });
  }

  private stateFile(key: string): string {
    return join(this.dir, `${key}.state.json`);
  }

  private journalFile(key: string): string {
    return join(this.dir, `${key}.entries.jsonl`);
  }
}

function keyOf(account: SimulatedAccount): string {
  return `${account.iban.replace(/[^A-Za-z0-9]/g, '')}-${account.currency}`;
}
