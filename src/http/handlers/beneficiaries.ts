import type { UseCaseDeps } from '../../usecases/deps.js';
import {
  createBeneficiary,
  deactivateBeneficiary,
  getBeneficiary,
  listBeneficiaries,
  updateBeneficiary,
} from '../../usecases/beneficiaries/manageBeneficiaries.js';
import type { Handlers } from '../pipeline/operations.js';

/** The Beneficiaries tag: a customer's own beneficiaries and their bank accounts. */
export function beneficiaryHandlers(deps: UseCaseDeps) {
  return {
    createBeneficiary: async ({ caller, body }) => ({ status: 201, data: await createBeneficiary(deps, caller, body) }),
    listBeneficiaries: async ({ caller, query }) => ({ status: 200, data: await listBeneficiaries(deps, caller, query) }),
    getBeneficiary: async ({ caller, params }) => ({ status: 200, data: await getBeneficiary(deps, caller, params.beneficiaryId) }),
    updateBeneficiary: async ({ caller, params, body }) => ({ status: 200, data: await updateBeneficiary(deps, caller, params.beneficiaryId, body) }),
    deactivateBeneficiary: async ({ caller, params }) => ({ status: 200, data: await deactivateBeneficiary(deps, caller, params.beneficiaryId) }),
  } satisfies Partial<Handlers>;
}
