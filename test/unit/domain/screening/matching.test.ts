import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SanctionsFileError, parseSanctionsFile } from '../../../../src/adapters/screening/sanctionsFiles.js';
import { SanctionsIndex, nameSimilarity } from '../../../../src/domain/screening/matching.js';
import { nameTokens, normalName } from '../../../../src/domain/screening/names.js';
import { entryFingerprint, partyFingerprint } from '../../../../src/domain/screening/fingerprints.js';
import { listsInForce } from '../../../../src/domain/screening/sanctionsLists.js';

/** Matching against the shipped extract: real entries of OFAC's SDN list and the UN consolidated list. */

const extract = (name: string) => parseSanctionsFile(name, readFileSync(new URL(`../../../../sanctions/extract/${name}`, import.meta.url)));
const un = extract('UN_consolidated.xml');
const sdn = extract('SDN.XML');
const index = new SanctionsIndex([...un.entries, ...sdn.entries]);
const THRESHOLD = 0.9;

describe('nameTokens', () => {
  it('drops case, diacritics and punctuation, reads "LAST, First" and ignores token order', () => {
    expect(nameTokens('FRANÇOIS YANGOUVONDA BOZIZÉ')).toEqual(['bozize', 'francois', 'yangouvonda']);
    expect(normalName('UTHMAN, Omar Mahmoud')).toBe(normalName('omar mahmoud uthman'));
    expect(normalName("AL-SHARIF, Sa'd")).toBe('al sad sharif');
    expect(normalName('Jérôme  Kakwavu')).toBe(normalName('KAKWAVU jerome'));
  });
});

describe('the list files', () => {
  it('reads the UN list: version, names, aliases, dates of birth and nationalities', () => {
    expect(un.version).toMatchObject({ list: 'UN_CONSOLIDATED', publishedOn: '2026-02-27', recordCount: 4 });
    expect(un.entries.find((entry) => entry.entryId === '690727')).toEqual({
      list: 'UN_CONSOLIDATED',
      entryId: '690727',
      kind: 'individual',
      names: ['FRANÇOIS YANGOUVONDA BOZIZÉ', 'Bozize Yangouvonda', 'Samuel Peter Mudde'],
      datesOfBirth: ['1946-10-14', '1948-12-16'],
      nationalities: ['Central African Republic', 'South Sudan'],
    });
  });

  it('reads the SDN list in both namespaces OFAC has published it in', () => {
    expect(sdn.version).toMatchObject({ list: 'OFAC_SDN', publishedOn: '2019-01-15', recordCount: 4 });
    const uthman = sdn.entries.find((entry) => entry.entryId === '6950');
    expect(uthman?.names).toContain('UTHMAN, Omar Mahmoud');
    expect(uthman?.names).toContain('AL-FILISTINI, Abu Qatada');
    expect(uthman?.datesOfBirth).toEqual(['1960-12-30', '1960-12-13']);
    const older = readFileSync(new URL('../../../../sanctions/extract/SDN.XML', import.meta.url), 'utf8').replace(
      'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML',
      'http://tempuri.org/sdnList.xsd',
    );
    expect(parseSanctionsFile('old.xml', Buffer.from(older)).entries).toEqual(sdn.entries);
    const foreign = older.replace('http://tempuri.org/sdnList.xsd', 'urn:other');
    expect(() => parseSanctionsFile('foreign.xml', Buffer.from(foreign))).toThrow(SanctionsFileError);
  });

  it('takes the latest publication of each list', () => {
    const later = { ...un, version: { ...un.version, fileName: 'b.xml', publishedOn: '2026-03-01' } };
    expect(listsInForce([un, sdn, later]).map((file) => file.version.fileName)).toEqual(['SDN.XML', 'b.xml']);
  });
});

describe('SanctionsIndex.screen', () => {
  it('flags a listed person written in another token order, without diacritics', () => {
    const [hit] = index.screen({ names: ['Francois Bozize Yangouvonda'] }, THRESHOLD);
    expect(hit).toMatchObject({ list: 'UN_CONSOLIDATED', entryId: '690727', score: 1 });
    const [kakwavu] = index.screen({ names: ['Kakwavu Bukande Jerome'] }, THRESHOLD);
    expect(kakwavu).toMatchObject({ list: 'UN_CONSOLIDATED', entryId: '6907997', matchedName: 'JÉRÔME KAKWAVU BUKANDE' });
  });

  it('finds a person by an alias and by a near spelling', () => {
    expect(index.screen({ names: ['Abu Qatada Al Filistini'] }, THRESHOLD)[0]).toMatchObject({ list: 'OFAC_SDN', entryId: '6950' });
    expect(index.screen({ names: ['Abdulahi Husein Kahie'] }, THRESHOLD)[0]).toMatchObject({ list: 'OFAC_SDN', entryId: '6991' });
    expect(nameSimilarity('Abdulahi Husein Kahie', 'KAHIE, Abdullahi Hussein')).toBeGreaterThan(0.9);
  });

  it('uses date of birth and nationality as secondary evidence', () => {
    const plain = index.screen({ names: ['Omar Uthman'] }, 0)[0]!;
    const born = index.screen({ names: ['Omar Uthman'], dateOfBirth: '1960-12-30' }, 0)[0]!;
    const otherBirth = index.screen({ names: ['Omar Uthman'], dateOfBirth: '1990-01-01' }, 0)[0]!;
    const jordanian = index.screen({ names: ['Omar Uthman'], nationality: 'Jordan' }, 0)[0]!;
    expect(born.score).toBeGreaterThan(plain.score);
    expect(otherBirth.score).toBeLessThan(plain.score);
    expect(jordanian.score).toBeGreaterThan(plain.score);
    expect(born).toMatchObject({ entryId: '6950', dateOfBirthAgrees: true });
  });

  it('passes ordinary names', () => {
    for (const name of ['Maria Garcia', 'John Smith', 'Anna Müller', 'Erik Johansson', 'Wei Zhang', 'Olena Kovalenko', 'Eric Larsen']) {
      expect(index.screen({ names: [name] }, THRESHOLD), name).toEqual([]);
    }
  });
});

describe('fingerprints', () => {
  it('stay the same for the same entry and person however written, and change when either changes', () => {
    const bozize = un.entries.find((entry) => entry.entryId === '690727')!;
    expect(entryFingerprint({ ...bozize, names: [...bozize.names].reverse() })).toBe(entryFingerprint(bozize));
    expect(entryFingerprint({ ...bozize, names: [...bozize.names, 'Another Alias'] })).not.toBe(entryFingerprint(bozize));
    expect(partyFingerprint(['Francois Bozize'], 'CF')).toBe(partyFingerprint(['BOZIZÉ, François'], 'CF'));
    expect(partyFingerprint(['Francois Bozize'], 'CF')).not.toBe(partyFingerprint(['Francois Bozize Yangouvonda'], 'CF'));
  });
});
