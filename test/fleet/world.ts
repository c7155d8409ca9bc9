/**
 * The fleet's world: the test world plus beneficiaries of customer A for the lifecycles, `perRequest`
 * for each, written to a JSON file that every process is given as WORLD_FILE (the first to find the
 * database empty loads it). Some beneficiaries carry a reference starting with FAIL, which the
 * simulated bank bounces: one of the first request in every five, all of those of every twentieth
 * from the third on.
 */
import { writeFile } from 'node:fs/promises';
import { ids, testWorld } from '../fixtures/world.js';
import { extraBeneficiaries } from '../reliability/api.js';

export interface FleetWorld {
  beneficiaryIds: string[];
  failing: Set<string>;
}

export async function writeFleetWorld(path: string, requests: number, perRequest: number): Promise<FleetWorld> {
  const failing = new Set<string>();
  const beneficiaries = extraBeneficiaries(ids.customerA, requests * perRequest).map((beneficiary, n) => {
    const request = Math.floor(n / perRequest);
    const slot = n % perRequest;
    if (!((request % 5 === 1 && slot === 0) || request % 20 === 2)) return beneficiary;
    failing.add(beneficiary.id);
    return { ...beneficiary, reference: `FAIL-${n + 1}` };
  });
  await writeFile(path, JSON.stringify({ ...testWorld, beneficiaries: [...testWorld.beneficiaries, ...beneficiaries] }));
  return { beneficiaryIds: beneficiaries.map((b) => b.id), failing };
}
