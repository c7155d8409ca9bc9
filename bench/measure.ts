/** The scenarios that run against the bench's server, one after another (bench/run.ts says what each measures). */
import { signAccessToken } from '../src/http/access/tokens.js';
import { freePort } from '../src/store/database/embedded.js';
import { bulkhead } from './bulkhead.js';
import { firstReads, REPEAT, single, type Target } from './load.js';
import { measureObservability, type LaunchVariant } from './observability.js';
import { loadWanted, PAYROLLS, rounds, seconds, wanted, warmupSeconds } from './options.js';
import { payrollLifecycle } from './payroll.js';
import { databaseProcesses, kbOf, memorySampler, stop } from './processes.js';
import { type Figures, mbOf } from './report.js';
import { runRounds } from './rounds.js';
import { launchBaseline, type Server } from './server.js';
import { slowReaders } from './slowReaders.js';
import { benchIds, estimateBody, estimateCsvBody } from './world.js';

/** The load scenarios against the baselines, then the single large requests; memory sampled throughout. */
export async function measure(
  tmp: string,
  server: Server,
  externalName: string | undefined,
  launchVariant: LaunchVariant,
  withDatabase: <T>(fn: (url: string) => Promise<T>) => Promise<T>,
): Promise<Omit<Figures, 'database' | 'startSeconds' | 'firstAnswer' | 'loadAverage' | 'seeding'>> {
  const { pid, base } = server;
  const memory = memorySampler(pid, externalName);
  const databasePids = () => databaseProcesses(pid, externalName);
  const token = await signAccessToken({ secret: server.jwtSecret, jwksUrl: undefined, issuer: undefined, audience: undefined }, benchIds.user, 6 * 3600);
  const auth = { authorization: `Bearer ${token}` };
  const post = { ...auth, 'content-type': 'application/json' };
  const estimatePath = '/v1/customers/payroll/estimate';
  const readPath = `/v1/customers/payroll/requests/${benchIds.request50}`;
  const body5 = estimateBody(5);
  const target = (name: string, targetPid: number, url: string, options: Pick<Target, 'method' | 'headers' | 'body'>): Target => ({
    name,
    pid: targetPid,
    url,
    ...options,
    ...(targetPid === pid && { databasePids }),
  });
  let readAnswerBytes: number | null = null;
  let loadFigures: Awaited<ReturnType<typeof runRounds>> = { baseline: null, baselineRead: null, estimate5: null, read: null };
  if (loadWanted()) {
    const baseline = await launchBaseline(tmp, base, {
      estimate: { path: estimatePath, init: { method: 'POST', headers: post, body: body5 } },
      read: { path: readPath, init: { headers: auth } },
    });
    readAnswerBytes = baseline.readAnswerBytes;
    loadFigures = await runRounds({
      rounds,
      seconds,
      warmupSeconds,
      baseline: target('baseline', baseline.bare.pid!, `${baseline.bareBase}${estimatePath}`, { method: 'POST', headers: post, body: body5 }),
      baselineRead: target('baseline (read-sized)', baseline.bare.pid!, `${baseline.bareBase}${readPath}`, { method: 'GET', headers: auth }),
      estimate5: wanted('estimate5') ? target('estimate-5', pid, `${base}${estimatePath}`, { method: 'POST', headers: post, body: body5 }) : null,
      read: wanted('read') ? target('read', pid, `${base}${readPath}`, { method: 'GET', headers: auth }) : null,
    });
    await stop(baseline.bare);
  }
  const observability = wanted('estimate5Observability')
    ? await measureObservability({
        estimate: target('estimate-5', pid, `${base}${estimatePath}`, { method: 'POST', headers: post, body: body5 }),
        rounds,
        seconds,
        warmupSeconds,
        metricsPort: await freePort(),
        launch: launchVariant,
      })
    : null;
  const loadPeak = memory.peak();

  const isEstimate = (body: unknown) => typeof (body as { data?: { feeHash?: unknown } }).data?.feeHash === 'string';
  const hasSplits = (count: number) => (body: unknown) => (body as { data?: { amountSplitDetails?: unknown[] } }).data?.amountSplitDetails?.length === count;
  const estimate = (count: number) =>
    single(`estimate-${count / 1000}k`, `${base}${estimatePath}`, { method: 'POST', headers: post, body: estimateBody(count) }, isEstimate);
  const estimate1k = wanted('estimate1k') ? await estimate(1000) : null;
  const estimate10k = wanted('estimate10k') ? await estimate(10_000) : null;
  const estimate10kCsv = wanted('estimate10kCsv')
    ? await single(
        'estimate-10k-csv',
        `${base}${estimatePath}?sourceAccountCurrencyId=${benchIds.acUsd}&payrollAccountCurrencyId=${benchIds.acPartnerAed}`,
        { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: estimateCsvBody(10_000) },
        isEstimate,
      )
    : null;
  const requestUrl = (id: string) => `${base}/v1/customers/payroll/requests/${id}`;
  const read1k = wanted('read1k') ? await single('read-1k', requestUrl(benchIds.request1k), { headers: auth }, hasSplits(1000)) : null;
  const read1kFirst = wanted('read1k')
    ? await firstReads(
        'read-1k-first',
        Array.from({ length: REPEAT }, (_, n) => requestUrl(benchIds.request1kUnread(n))),
        { headers: auth },
        hasSplits(1000),
      )
    : null;
  const peak = memory.peak();
  memory.stop();
  const payrolls: Figures['payrolls'] = {};
  const adminToken = await signAccessToken({ secret: server.jwtSecret, jwksUrl: undefined, issuer: undefined, audience: undefined }, benchIds.admin, 6 * 3600);
  // The payrolls read the peak phase by phase (it is reset at each): the start-up's is read before.
  let peakWithStartKb = kbOf(pid, 'VmHWM');
  for (const [name, lines] of PAYROLLS) {
    if (!wanted(name)) continue;
    const session = { base, pid, externalName, customerToken: token, adminToken, seedingRssKb: server.seedingRssKb };
    payrolls[name] = await payrollLifecycle(session, lines);
    peakWithStartKb = Math.max(peakWithStartKb, payrolls[name].nodeRssMb * 1024);
  }
  const finished = payrolls.payroll100k?.requestId;
  const slow =
    wanted('slowReaders100k') && finished
      ? await slowReaders({
          base,
          pid,
          externalName,
          bigPath: `/v1/customers/payroll/requests/${finished}`,
          bigToken: token,
          smallPath: `/v1/customers/payroll/requests/${benchIds.neighbour.request}`,
          smallToken: await signAccessToken(
            { secret: server.jwtSecret, jwksUrl: undefined, issuer: undefined, audience: undefined },
            benchIds.neighbour.user,
            3600,
          ),
        })
      : null;
  // Last: the creations it queues may leave requests of the bench customer behind.
  const bulkheadFigures = wanted('bulkhead')
    ? await bulkhead({
        base,
        customerToken: token,
        neighbourToken: await signAccessToken(
          { secret: server.jwtSecret, jwksUrl: undefined, issuer: undefined, audience: undefined },
          benchIds.neighbour.user,
          3600,
        ),
        withDatabase,
      })
    : null;
  peakWithStartKb = Math.max(peakWithStartKb, kbOf(pid, 'VmHWM'));
  return {
    rounds,
    seconds,
    readAnswerBytes,
    ...loadFigures,
    observability,
    estimate1k,
    estimate10k,
    estimate10kCsv,
    read1k,
    read1kFirst,
    payrolls,
    slowReaders: slow,
    bulkhead: bulkheadFigures,
    memory: {
      nodeRssMb: mbOf(peak.nodeRssKb),
      databasePssMb: mbOf(peak.databasePssKb),
      totalMb: mbOf(peak.totalKb),
      loadScenarios: { nodeRssMb: mbOf(loadPeak.nodeRssKb), databasePssMb: mbOf(loadPeak.databasePssKb), totalMb: mbOf(loadPeak.totalKb) },
      nodePeakRssWithStartMb: mbOf(peakWithStartKb),
      databaseScope: externalName ? 'the backends serving the bench database only' : 'every process of the embedded server',
    },
    rssMb: mbOf(peakWithStartKb),
  };
}
