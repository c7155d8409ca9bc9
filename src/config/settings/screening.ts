/** Sanctions screening (docs/screening.md): where the lists are, and how close a name must come to be a hit. */
import { boolean, declare, integer, text } from '../values.js';

export const SCREENING_SETTINGS = declare({
  SANCTIONS_LIST_DIR: text({
    default: undefined,
    doc: "A folder of the official list files (OFAC's `SDN.XML`, the UN consolidated list's XML); set, every beneficiary is screened, and newer files dropped there are read and every active beneficiary screened again. Unset: no screening",
  }),
  SANCTIONS_SHIPPED_EXTRACT: boolean({
    default: false,
    doc: 'Without `SANCTIONS_LIST_DIR`: screen against the small extract of the real lists the service ships (`sanctions/extract/`; tests and the demo, never production), said at start',
  }),
  SCREENING_THRESHOLD_PERCENT: integer(50, 100, {
    default: 90,
    doc: 'The score (in percent, 50–100) from which a list entry is a hit ([screening](screening.md#the-score))',
  }),
});
