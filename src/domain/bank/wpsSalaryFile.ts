import type { Decimal } from 'decimal.js';
import { Money, sum } from '../money/money.js';

/**
 * The UAE Wage Protection System's Salary Information File (SIF), pure: one EDR (employee detail
 * record) per salary, then one SCR (salary control record), last. The layout is the one the banks'
 * WPS guides and the Central Bank's UAEWPS-CRG01 agree on (docs/wps.md); where agents differ
 * (an IBAN or an account number, the person id's width, the time to the minute or the second) a
 * profile chooses.
 */

/** Where the agents' SIF layouts differ. */
export interface SifProfile {
  /** The EDR's account column: the employee's IBAN (23 characters in the UAE) or account number. */
  account: 'IBAN' | 'ACCOUNT_NUMBER';
  /** Digits of the labour-card person id, zero-padded on the left. */
  personIdWidth: number;
  /** The SCR's creation time (and the file name's, which always has seconds). */
  time: 'HHMM' | 'HHMMSS';
}

/**
 * The profiles a setting names (WPS_SIF_PROFILE). `UAEWPS` is the layout of the Central Bank's
 * guide and the example; the others change one knob each, for an agent whose guide asks
 * for it.
 */
export const SIF_PROFILES = {
  UAEWPS: { account: 'IBAN', personIdWidth: 14, time: 'HHMM' },
  UAEWPS_ACCOUNT_NUMBER: { account: 'ACCOUNT_NUMBER', personIdWidth: 14, time: 'HHMM' },
  UAEWPS_SECONDS: { account: 'IBAN', personIdWidth: 14, time: 'HHMMSS' },
} as const satisfies Record<string, SifProfile>;

/** The employer as the ministry knows it, and the agent that forwards its salaries. */
export interface WpsEmployer {
  /** The 13-digit establishment id (MOHRE); fewer digits are zero-padded. */
  establishmentId: string;
  /** The 9-digit routing code of the employer's agent (a bank or exchange house). */
  agentRoutingCode: string;
  /** At most 35 characters are written. */
  name: string;
}

/** One employee's salary: who, where it is paid, the period and its parts. */
export interface WpsSalary {
  /** The payout this salary is paid by (the pain.001's EndToEndId is derived from it). */
  transferId: string;
  /** The labour card's person id (digits). */
  personId: string;
  /** The 9-digit routing code of the employee's bank or exchange house. */
  routingCode: string;
  iban: string | null;
  accountNumber: string | null;
  /** YYYY-MM-DD, inclusive. */
  payPeriodStart: string;
  payPeriodEnd: string;
  /** Decimal strings in AED; fixed + variable is the payout's amount. */
  fixedAmount: string;
  variableAmount: string;
  leaveDays: number;
}

export interface SalaryInformationFile {
  /** `<establishment id><YYMMDDHHMMSS>.SIF`, in UAE time. */
  fileName: string;
  /** The file's text: CRLF line ends, the SCR last. */
  text: string;
  edrCount: number;
  /** The sum of the EDRs' fixed and variable parts, AED with 2 decimals. */
  total: string;
  /** The time its name and SCR were written from: the same time gives the same bytes. */
  createdAt: Date;
}

/** Why a payroll cannot be written as a SIF (a field the layout needs is missing or out of form). */
export class SifError extends Error {}

/** AED has 2 minor units: every amount of the file is written with exactly 2 decimals. */
const AED_SCALE = 2;
/** Gulf Standard Time is UTC+4 all year (no daylight saving): the file's times are the agent's local time. */
const GULF_OFFSET_MS = 4 * 60 * 60 * 1000;
const EMPLOYER_NAME_MAX = 35;
const ESTABLISHMENT_ID_WIDTH = 13;
const ROUTING_CODE = /^\d{9}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The SIF of one payroll's salaries. Its invariants: one EDR per salary, in order; the SCR's count
 * is the number of EDRs and its total the sum of their fixed and variable parts; every amount at
 * AED's minor units, exactly (a part with more decimals is refused, never rounded).
 */
export function buildSalaryInformationFile(employer: WpsEmployer, salaries: readonly WpsSalary[], profile: SifProfile, createdAt: Date): SalaryInformationFile {
  if (salaries.length === 0) throw new SifError('A salary file needs at least one salary');
  const establishmentId = digits(employer.establishmentId, ESTABLISHMENT_ID_WIDTH, 'establishment id');
  const agent = routingCode(employer.agentRoutingCode, 'agent routing code');
  const edrs = salaries.map((salary) => edrOf(salary, profile));
  const total = sum(edrs.map((edr) => edr.salary));
  const local = gulfTime(createdAt);
  const scr = [
    'SCR',
    establishmentId,
    agent,
    local.date,
    profile.time === 'HHMM' ? local.hhmm : local.hhmmss,
    salaryMonth(salaries),
    String(edrs.length).padStart(2, '0'),
    total.toFixed(AED_SCALE),
    'AED',
    plainText(employer.name, EMPLOYER_NAME_MAX),
  ].join(',');
  const text = [...edrs.map((edr) => edr.line), scr].map((line) => `${line}\r\n`).join('');
  return { fileName: `${establishmentId}${local.stamp}.SIF`, text, edrCount: edrs.length, total: total.toFixed(AED_SCALE), createdAt };
}

function edrOf(salary: WpsSalary, profile: SifProfile): { line: string; salary: Decimal } {
  const fixed = aed(salary.fixedAmount, 'fixed income');
  const variable = aed(salary.variableAmount, 'variable income');
  const days = daysInPeriod(salary.payPeriodStart, salary.payPeriodEnd);
  if (!Number.isInteger(salary.leaveDays) || salary.leaveDays < 0 || salary.leaveDays > days)
    throw new SifError(`Leave days ${salary.leaveDays} are not a whole number of days within the period's ${days}`);
  const line = [
    'EDR',
    digits(salary.personId, profile.personIdWidth, 'labour-card person id'),
    routingCode(salary.routingCode, 'employee routing code'),
    accountOf(salary, profile),
    salary.payPeriodStart,
    salary.payPeriodEnd,
    String(days),
    fixed.toFixed(AED_SCALE),
    variable.toFixed(AED_SCALE),
    String(salary.leaveDays),
  ].join(',');
  return { line, salary: fixed.plus(variable) };
}

/** The salary a payout pays: its fixed and variable parts together. */
export function salaryAmount(salary: Pick<WpsSalary, 'fixedAmount' | 'variableAmount'>): Decimal {
  return new Money(salary.fixedAmount).plus(salary.variableAmount);
}

function accountOf(salary: WpsSalary, profile: SifProfile): string {
  const value = profile.account === 'IBAN' ? salary.iban : salary.accountNumber;
  const cleaned = value?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (!/^[A-Z0-9]+$/.test(cleaned)) throw new SifError(`The employee's ${profile.account === 'IBAN' ? 'IBAN' : 'account number'} is missing`);
  if (profile.account === 'IBAN' && !/^AE\d{21}$/.test(cleaned)) throw new SifError(`${cleaned} is not a UAE IBAN (AE and 21 digits)`);
  return cleaned;
}

/** An amount of the file: a decimal at most at AED's minor units, not negative. */
function aed(text: string, what: string): Decimal {
  if (!/^\d{1,15}(\.\d{1,8})?$/.test(text)) throw new SifError(`The ${what} ${text} is not an amount`);
  const value = new Money(text);
  if (value.decimalPlaces() > AED_SCALE) throw new SifError(`The ${what} ${text} has more decimals than AED's ${AED_SCALE}`);
  return value;
}

function digits(value: string, width: number, what: string): string {
  if (!/^\d+$/.test(value) || value.length > width) throw new SifError(`The ${what} ${value} is not at most ${width} digits`);
  return value.padStart(width, '0');
}

function routingCode(value: string, what: string): string {
  if (!ROUTING_CODE.test(value)) throw new SifError(`The ${what} ${value} is not 9 digits`);
  return value;
}

/** Days from start to end, both included; the end may not precede the start. */
export function daysInPeriod(start: string, end: string): number {
  const from = dayNumber(start);
  const to = dayNumber(end);
  if (to < from) throw new SifError(`The pay period ends (${end}) before it starts (${start})`);
  return to - from + 1;
}

function dayNumber(date: string): number {
  const match = DATE.exec(date);
  const at = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || new Date(at).toISOString().slice(0, 10) !== date) throw new SifError(`${date} is not a date (YYYY-MM-DD)`);
  return at / 86_400_000;
}

/** The SCR's salary month, MMYYYY: the month the payroll's latest pay period ends in. */
function salaryMonth(salaries: readonly WpsSalary[]): string {
  const latest = salaries.map((salary) => salary.payPeriodEnd).reduce((a, b) => (b > a ? b : a));
  return `${latest.slice(5, 7)}${latest.slice(0, 4)}`;
}

/** A free text as a field of a comma-separated line without quoting: no commas, no line breaks, printable ASCII, cut. */
function plainText(value: string, max: number): string {
  const cleaned = value
    .normalize('NFKD')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/,/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.slice(0, max).trimEnd();
}

function gulfTime(at: Date): { date: string; hhmm: string; hhmmss: string; stamp: string } {
  const iso = new Date(at.getTime() + GULF_OFFSET_MS).toISOString();
  const [date, time] = [iso.slice(0, 10), iso.slice(11, 19).replace(/:/g, '')];
  return { date, hhmm: time.slice(0, 4), hhmmss: time, stamp: `${date.slice(2).replace(/-/g, '')}${time}` };
}
