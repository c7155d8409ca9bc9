/**
 * What a customer is quoted from: the feeHash that seals an estimate, how far a quote or a recorded
 * FX rate may lie from the rates, and where the rates come from (docs/operations.md, exchange rates).
 */
import { computed, declare, duration, integer, list, oneOf, read, secret, text } from '../values.js';

/** The committed key feeHashes are sealed with where none is set: production refuses to start on it. */
export const DEVELOPMENT_FEE_HASH_SECRET = 'development-only-fee-hash-secret-change-me-012345';

const DAY_MS = 86_400_000;

export const PRICING_SETTINGS = declare({
  FEE_HASH_TTL_SECONDS: integer(60, 3600, { default: 900, doc: 'Lifetime of a feeHash (60–3600)' }),
  FEE_HASH_SECRET: secret({ default: DEVELOPMENT_FEE_HASH_SECRET, shown: 'a development secret', doc: 'HMAC key of payout feeHashes' }),
  // Unset, the use case applies the domain's default (src/domain/payroll/settlement.ts), which the docs show.
  QUOTE_TOLERANCE_BPS: integer(0, 10_000, {
    default: undefined,
    shown: '`1000`',
    doc: "How far (in BIPS of the current rate for the pair, 0–10000) an admin's quote may lie from it; beyond it `quote` answers 400 (a typo cannot strand a request)",
  }),
  FX_RECORD_TOLERANCE_BPS: integer(0, 10_000, {
    default: undefined,
    shown: '`500`',
    doc: 'How far (in BIPS of the accepted quote, 0–10000) a recorded FX rate may lie from it; beyond it `fx-exchange` answers 400',
  }),
  RATE_SOURCE: oneOf(['world', 'feed'], {
    default: 'world',
    doc: "Where exchange rates come from: `world` (the world file's `rates`, moved by the admin's `PUT /v1/admin/rates/…`; no age bound, as ever) or `feed` (a rate feed the worker polls; see [Exchange rates](#exchange-rates))",
  }),
  RATE_FEED_URL: text({
    default: undefined,
    doc: "With `RATE_SOURCE=feed` (required then): the feed's URL, e.g. `https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml`",
  }),
  RATE_FEED_FORMAT: oneOf(['ecb-xml', 'json'], {
    default: 'ecb-xml',
    doc: '`ecb-xml` (the ECB\'s euro reference rates, crossed through EUR) or `json` (`{ "base", "timestamp", "rates" }`, as commercial providers publish)',
  }),
  RATE_POLL_INTERVAL_S: integer(1, 86_400, {
    default: 900,
    doc: 'Seconds between two polls of the feed (1–86400), once per interval across every worker on the database',
  }),
  // The ECB's Friday rates must last past a weekend and a one-day holiday; a JSON feed publishes every day.
  RATE_MAX_AGE: duration({
    default: computed('`4d` (`ecb-xml`), `1d` (`json`)', (env): number => (read(env, PRICING_SETTINGS.RATE_FEED_FORMAT) === 'ecb-xml' ? 4 : 1) * DAY_MS),
    doc: "With a feed: the age (now − the rate's `asOf`) beyond which a pair is unavailable and the estimate answers 400 `EXCHANGE_RATE_UNAVAILABLE`; a duration such as `4d`, `36h`, `90m` or `30s`",
  }),
  // World rates never age, and neither does a manual rate set beside them.
  RATE_MANUAL_MAX_AGE: duration({
    default: computed('`RATE_MAX_AGE` with a feed; no bound with `world`', (env): number | null =>
      read(env, PRICING_SETTINGS.RATE_SOURCE) === 'feed' ? read(env, PRICING_SETTINGS.RATE_MAX_AGE) : null,
    ),
    doc: 'The age bound of a rate an admin sets with `PUT /v1/admin/rates/{from}/{to}` (a manual rate), counted from when it was set',
  }),
  RATE_MAX_JUMP_BPS: integer(1, 1_000_000, {
    default: 1000,
    doc: 'With a feed: a fetched rate further than this (in BIPS of the stored one) is refused and the stored one stays',
  }),
  RATE_MAX_WINDOW_BPS: integer(1, 1_000_000, {
    default: 2000,
    doc: "With a feed: a fetched rate further than this (in BIPS) from the rate that stood 24 hours before (the first one stored, for a feed younger than that), or, for a currency pegged by `RATE_PEGS` or the world file, from its anchor's rate times the peg, is refused and the stored one stays",
  }),
  RATE_PEGS: list({
    doc: "Pegged currencies, `ANCHOR/CURRENCY=RATE` comma-separated (`USD/AED=3.6725,USD/SAR=3.75`): with a feed, a pegged currency the feed lacks is the anchor's fed rate times the peg; wins over the world file's `pegs` for the same currency",
  }),
});
