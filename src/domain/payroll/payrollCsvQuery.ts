import { validationError } from '../errors.js';

/** The query parameters that stand for the JSON body's top-level fields when the body is a file. */
export interface PayrollCsvQuery {
  sourceAccountCurrencyId?: string | undefined;
  payrollAccountCurrencyId?: string | undefined;
  feeHash?: string | undefined;
  payDate?: string | undefined;
}

type Field = keyof PayrollCsvQuery;
type RequiredField = Exclude<Field, 'payDate'>;

/** The query of a file once checked: its required fields given, the pay date optional. */
export type CsvQueryFields = Record<RequiredField, string> & { payDate?: string | undefined };

/** What a payroll CSV file needs beside it, by operation. */
const REQUIRED: Record<'estimate' | 'create', readonly RequiredField[]> = {
  estimate: ['sourceAccountCurrencyId', 'payrollAccountCurrencyId'],
  create: ['feeHash', 'sourceAccountCurrencyId', 'payrollAccountCurrencyId'],
};

/** With a JSON body the body says it all: a query parameter meant for a file is refused, not ignored. */
export function refuseCsvQueryWithJson(query: PayrollCsvQuery): void {
  const given = (Object.keys(query) as Field[]).filter((name) => query[name] !== undefined);
  if (given.length > 0) throw validationError(`query.${given[0]} is only for a text/csv body; with a JSON body give it in the body`, { field: given[0]! });
}

/** The query parameters a file needs for `operation`, or the 400 naming the missing ones. */
export function requireCsvQuery(query: PayrollCsvQuery, operation: 'estimate' | 'create'): CsvQueryFields {
  const missing = REQUIRED[operation].filter((name) => !query[name]);
  if (missing.length > 0) throw validationError(`query.${missing.join(' and query.')} required with a text/csv body`, { field: missing[0]! });
  return query as CsvQueryFields;
}
