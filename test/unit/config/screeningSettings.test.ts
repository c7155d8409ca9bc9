import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { announceScreening } from '../../../src/composition/worker.js';

/** Screening's settings: off unless lists are configured; the shipped extract only when asked, and said at start. */

const base = { NODE_ENV: 'test' };

/** What announceScreening logs for `config`, as the JSON lines pino writes. */
function announced(env: Record<string, string>): Array<{ level: number; msg: string }> {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  announceScreening(loadConfig({ ...base, ...env }), pino({ level: 'info' }, sink));
  return lines;
}

describe('the screening settings', () => {
  it('screen nothing by default, and say nothing', () => {
    expect(loadConfig(base).screening).toEqual({ listDir: undefined, shippedExtract: false, threshold: 0.9 });
    expect(announced({})).toEqual([]);
  });

  it('use the shipped extract only when asked, and say so at start with a warning', () => {
    const { screening } = loadConfig({ ...base, SANCTIONS_SHIPPED_EXTRACT: 'true' });
    expect(screening.shippedExtract).toBe(true);
    expect(screening.listDir).toMatch(/sanctions\/extract\/$/);
    const [line] = announced({ SANCTIONS_SHIPPED_EXTRACT: 'true' });
    expect(line?.level).toBe(40);
    expect(line?.msg).toMatch(/shipped extract/);
  });

  it('prefer the operator’s folder to the extract, and refuse a folder that is not there', () => {
    const { screening } = loadConfig({ ...base, SANCTIONS_LIST_DIR: '/tmp', SANCTIONS_SHIPPED_EXTRACT: 'true' });
    expect(screening).toMatchObject({ listDir: '/tmp', shippedExtract: false });
    expect(() => announced({ SANCTIONS_LIST_DIR: '/nonexistent/sanctions' })).toThrow(ConfigError);
  });

  it('take the threshold in percent, within 50 to 100', () => {
    expect(loadConfig({ ...base, SCREENING_THRESHOLD_PERCENT: '85' }).screening.threshold).toBe(0.85);
    expect(() => loadConfig({ ...base, SCREENING_THRESHOLD_PERCENT: '49' })).toThrow(ConfigError);
  });
});
