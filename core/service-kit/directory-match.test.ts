import { describe, expect, it } from 'vitest';
import { compileFilter } from './directory-match.ts';

const row = (id: string, fields: Partial<Parameters<ReturnType<typeof compileFilter>>[0]> = {}) => ({
  id,
  name: id,
  description: '',
  sectors: [],
  capabilities: [],
  networks: [],
  city: null,
  region: null,
  country: null,
  ...fields,
});

describe('compileFilter', () => {
  const studio = row('studio', {
    name: 'Atelier Nord',
    description: 'Architecture studio',
    sectors: ['design'],
    capabilities: ['interior design', '3d modelling'],
    networks: ['French Tech Lille'],
    city: 'Lille',
    region: 'Hauts-de-France',
    country: 'FR',
  });
  const lab = row('lab', {
    name: 'Data Lab',
    description: 'Machine learning for retail',
    sectors: ['data'],
    capabilities: ['machine learning'],
    city: 'Montréal',
    region: 'Québec',
    country: 'CA',
  });

  it('matches a capability by concept, in English or French, or by words within one capability', () => {
    expect(compileFilter({ capability: "architecture d'intérieur" })(studio)).toBe(0);
    expect(compileFilter({ capability: 'design' })(studio)).toBe(0);
    expect(compileFilter({ capability: 'apprentissage automatique' })(lab)).toBe(0);
    expect(compileFilter({ capability: 'interior design' })(lab)).toBeNull();
  });

  it('matches every comma-separated part of a place at some level, accents and case aside', () => {
    expect(compileFilter({ place: 'quebec' })(lab)).toBe(0);
    expect(compileFilter({ place: 'Montreal, Canada' })(lab)).toBe(0);
    expect(compileFilter({ place: 'Lille, CA' })(studio)).toBeNull();
    expect(compileFilter({ place: 'hauts de france, fr' })(studio)).toBe(0);
  });

  it('ranks free text: name and capabilities over the description, nothing for no word found', () => {
    const byName = compileFilter({ text: 'atelier' })(studio)!;
    const byDescription = compileFilter({ text: 'studio' })(studio)!;
    expect(byName).toBeGreaterThan(byDescription);
    expect(byDescription).toBeGreaterThan(0);
    expect(compileFilter({ text: 'machine learning in Canada' })(lab)).toBeGreaterThan(compileFilter({ text: 'machine learning' })(lab)!);
    expect(compileFilter({ text: 'zeppelin' })(lab)).toBeNull();
    expect(compileFilter({ text: 'the of and' })(lab)).toBeNull();
  });

  it('requires every filter given', () => {
    expect(compileFilter({ network: 'french tech', sector: 'design', text: 'interior' })(studio)).toBeGreaterThan(0);
    expect(compileFilter({ network: 'french tech', sector: 'data' })(studio)).toBeNull();
  });
});
