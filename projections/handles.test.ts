/**
 * Each projection says which event types it reads (`handles`, engine/definition.ts), and that
 * statement is checked against its rules: exactly the types its rules.sql names, plus every
 * type that carries postings when the rules read ledger.postings. A rule that starts reading a
 * new type, or a `handles` entry no rule reads, fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEDGER_EVENT_TYPES, POSTING_EVENT_TYPES } from '../ledger/index.ts';
import { PROJECTIONS } from './registry.ts';

function rulesOf(name: string): string {
  return readFileSync(new URL(`./${name.replaceAll('_', '-')}/rules.sql`, import.meta.url), 'utf8');
}

/** The event types a rules file reads: each quoted by name, and the posting types if it reads postings. */
export function typesRead(rules: string): string[] {
  const quoted = new Set([...rules.matchAll(/'([A-Za-z]+)'/g)].map((match) => match[1]));
  const named = LEDGER_EVENT_TYPES.filter((type) => quoted.has(type));
  const viaPostings = rules.includes('ledger.postings') ? POSTING_EVENT_TYPES : [];
  return [...new Set([...named, ...viaPostings])].sort();
}

describe("each projection's handled event types", () => {
  it.each(PROJECTIONS.map((projection) => [projection.name, projection] as const))(
    '%s: are the types its rules read',
    (name, projection) => {
      expect([...new Set(projection.handles)].sort()).toEqual(typesRead(rulesOf(name)));
    },
  );

  it('the reading sees a quoted type and the postings, not a word that is no event type', () => {
    const rules = "where e.type = 'MoneyRequested' and x = 'wallet-' join ledger.postings p";
    expect(typesRead(rules)).toEqual([...new Set(['MoneyRequested', ...POSTING_EVENT_TYPES])].sort());
  });
});
