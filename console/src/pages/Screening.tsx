/** Sanctions screening on the admin's desk: the hits by state, each with the beneficiary and the listed entry side by side, and the release and confirm decisions with a note. */
import { type components, unwrap } from 'payroll-fee-service';
import { useState } from 'preact/hooks';
import { api } from '../session.js';
import { ErrorBox, Field, Link, Page, Time, useAction, useLoad } from '../ui.js';

type ScreeningHit = components['schemas']['ScreeningHit'];
type HitState = ScreeningHit['state'];

const STATES: ReadonlyArray<[HitState, string]> = [
  ['OPEN', 'Open'],
  ['RELEASED', 'Released'],
  ['CONFIRMED', 'Confirmed'],
];

const stateLabel = (state: HitState) => STATES.find(([value]) => value === state)?.[1] ?? state;
const agreement = (agrees: boolean | undefined) => (agrees === undefined ? 'not known' : agrees ? 'agrees' : 'disagrees');

function Decide({ hit, changed }: { hit: ScreeningHit; changed: () => void }) {
  const [note, setNote] = useState('');
  const action = useAction(async (decision: 'release' | 'confirm') => {
    const params = { path: { hitId: hit.id } };
    unwrap(
      decision === 'release'
        ? await api.POST('/v1/admin/screening/hits/{hitId}/release', { params, body: { note } })
        : await api.POST('/v1/admin/screening/hits/{hitId}/confirm', { params, body: { note } }),
    );
    changed();
  });
  const short = hit.id.slice(0, 8);
  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <Field label={`Decision note for hit ${short}`}>
        <input value={note} required maxLength={1000} onInput={(event) => setNote(event.currentTarget.value)} />
      </Field>
      <button type="button" disabled={action.busy || note.trim() === ''} onClick={() => void action.run('release')}>
        Release hit {short}
      </button>{' '}
      <button type="button" disabled={action.busy || note.trim() === ''} onClick={() => void action.run('confirm')}>
        Confirm hit {short}
      </button>
      <ErrorBox error={action.error} />
    </form>
  );
}

/** One hit: what the service knows of the beneficiary beside what the list says of the entry. */
function HitCard({ hit, changed }: { hit: ScreeningHit; changed: () => void }) {
  const short = hit.id.slice(0, 8);
  return (
    <section aria-label={`Hit ${short}`} class="card" data-testid="screening-hit" data-state={hit.state}>
      <h3>
        {hit.candidate.list} entry {hit.candidate.entryId}: score {hit.candidate.score} ({stateLabel(hit.state)})
      </h3>
      <div class="side-by-side">
        <div>
          <h4>The beneficiary</h4>
          <dl aria-label={`Beneficiary of hit ${short}`}>
            <div>
              <dt>Beneficiary</dt>
              <dd>{hit.beneficiaryId}</dd>
            </div>
            <div>
              <dt>Names</dt>
              <dd>{hit.beneficiaryNames.join('; ')}</dd>
            </div>
            <div>
              <dt>Nationality</dt>
              <dd>{hit.beneficiaryNationality ?? 'not given'}</dd>
            </div>
            <div>
              <dt>Name that scored</dt>
              <dd>{hit.candidate.screenedName}</dd>
            </div>
          </dl>
        </div>
        <div>
          <h4>The listed entry</h4>
          <dl aria-label={`Listed entry of hit ${short}`}>
            <div>
              <dt>Listed names</dt>
              <dd>{hit.entry.names.join('; ')}</dd>
            </div>
            <div>
              <dt>Dates of birth</dt>
              <dd>{hit.entry.datesOfBirth.join('; ') || 'none listed'}</dd>
            </div>
            <div>
              <dt>Nationalities</dt>
              <dd>
                {hit.entry.nationalities.join('; ') || 'none listed'} (nationality {agreement(hit.candidate.nationalityAgrees)})
              </dd>
            </div>
            <div>
              <dt>Name that scored</dt>
              <dd>{hit.candidate.matchedName}</dd>
            </div>
            <div>
              <dt>List version</dt>
              <dd>
                {hit.listVersion.fileName}, published {hit.listVersion.publishedOn}
              </dd>
            </div>
          </dl>
        </div>
      </div>
      <p>
        Raised <Time value={hit.createdAt} />; {hit.heldPayouts.length} payout{hit.heldPayouts.length === 1 ? '' : 's'} held
        {hit.heldPayouts.map((payout) => (
          <span key={payout.transferId}>
            {' '}
            <Link to={`/requests/${payout.payrollRequestId}`}>Request {payout.payrollRequestId.slice(-12)}</Link>
          </span>
        ))}
      </p>
      {hit.decision && (
        <p>
          {stateLabel(hit.state)} by {hit.decision.decidedBy} (<Time value={hit.decision.decidedAt} />
          ): {hit.decision.note}
        </p>
      )}
      {hit.state === 'OPEN' && <Decide hit={hit} changed={changed} />}
    </section>
  );
}

/** /console/screening: the hits of one state, oldest first. */
export function ScreeningPage() {
  const [state, setState] = useState<HitState>('OPEN');
  const hits = useLoad(async () => unwrap(await api.GET('/v1/admin/screening/hits', { params: { query: { state, limit: 50 } } })), [state]);
  return (
    <Page title="Sanctions screening hits">
      <Field label="Hits in state">
        <select value={state} onChange={(event) => setState(event.currentTarget.value as HitState)}>
          {STATES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <ErrorBox error={hits.error} />
      {hits.data && hits.data.items.length === 0 && <p>No {stateLabel(state).toLowerCase()} hit.</p>}
      {hits.data?.items.map((hit) => (
        <HitCard key={hit.id} hit={hit} changed={hits.reload} />
      ))}
    </Page>
  );
}
