import { describe, expect, it } from 'vitest';
import { DEMO_NEEDS, DEMO_ORGANIZATIONS } from '../demo/demo-data.ts';
import { EXPERTISE_CONCEPTS } from './expertise-concepts.ts';
import { conceptOf, conceptsIn, conceptsOfTerm, expertiseConcept, VOCABULARY_SIZE } from './expertise-vocabulary.ts';

const ids = (text: string) => conceptsIn(text).map((c) => c.concept);

describe('expertise vocabulary', () => {
  it('has at least forty concepts with unique ids and English and French names', () => {
    expect(VOCABULARY_SIZE).toBeGreaterThanOrEqual(40);
    expect(new Set(EXPERTISE_CONCEPTS.map((c) => c.id)).size).toBe(VOCABULARY_SIZE);
    for (const concept of EXPERTISE_CONCEPTS) {
      expect(concept.fr.length, concept.id).toBeGreaterThan(0);
      expect(conceptOf(concept.label)?.concept).toBe(concept.id);
      expect(expertiseConcept(concept.id)).toBe(concept);
    }
  });

  it('knows every capability of the demo organizations and every expertise of the demo needs', () => {
    const terms = [...DEMO_ORGANIZATIONS.flatMap((o) => o.capabilities), ...DEMO_NEEDS.flatMap((n) => n.expertise)];
    const unknown = terms.filter((t) => conceptsOfTerm(t).some((c) => !c.known));
    expect(unknown).toEqual([]);
  });

  it.each([
    ['développement web', 'web development', 'web-development'],
    ['site internet', 'website', 'web-development'],
    ['architecture intérieure', 'interior design', 'interior-design'],
    ["architecte d'intérieur", 'interior designer', 'interior-design'],
    ['modélisation 3D', '3D modelling', '3d-modelling'],
    ['BIM', '3d modeling', '3d-modelling'],
    ['gestion de projet', 'project management', 'project-management'],
    ['pilotage', 'project manager', 'project-management'],
    ['apprentissage automatique', 'machine learning', 'machine-learning'],
    ['réseaux sociaux', 'social media', 'social-media'],
    ['traduction', 'translation', 'translation'],
    ['rédaction', 'copywriting', 'copywriting'],
    ["tests d'intrusion", 'penetration testing', 'penetration-testing'],
    ['conformité RGPD', 'GDPR compliance', 'gdpr-compliance'],
    ['propriété intellectuelle', 'intellectual property', 'intellectual-property'],
    ['audit énergétique', 'energy audit', 'energy-audit'],
    ['usinage', 'CNC machining', 'cnc-machining'],
    ['design industriel', 'industrial design', 'industrial-design'],
    ['voix off', 'voice-over', 'voice-over'],
    ['pompe à chaleur', 'heat pumps', 'hvac'],
  ])('%s and %s are both %s', (fr, en, id) => {
    expect(conceptOf(fr)?.concept).toBe(id);
    expect(conceptOf(en)?.concept).toBe(id);
  });

  it.each([
    ['MODÉLISATION 3D', '3d-modelling'],
    ['modelisation 3d', '3d-modelling'],
    ['3D-Modellings', '3d-modelling'],
    ['Voiceover', 'voice-over'],
    ['voice over artists', 'voice-over'],
    ['Pen-tests', 'penetration-testing'],
    ['pentests', 'penetration-testing'],
    ['Front-End', 'web-development'],
    ['web apps', 'web-development'],
    ['Réseau social', 'social-media'],
    ['Bases de données', 'databases'],
    ['TECHNOLOGIES DE L’INFORMATION ET CYBERSÉCURITÉ', 'security-audit'],
  ])('folds case, accents, plurals and hyphens: %s → %s', (term, id) => {
    expect(conceptOf(term)?.concept).toBe(id);
  });

  it('extracts concepts from free text, longest phrase first, each once', () => {
    expect(ids('Interior architecture and architecture of a museum')).toEqual(['interior-design', 'architecture']);
    expect(ids('Architecture intérieure, modélisation 3D et pilotage du chantier')).toEqual([
      'interior-design',
      '3d-modelling',
      'project-management',
    ]);
    expect(ids('A terminology database in four languages')).toEqual(['localisation']);
    expect(ids('Data visualisation, then a visualisation of the museum wing')).toEqual(['analytics', '3d-modelling']);
    expect(ids('web development, more web development, and a web app')).toEqual(['web-development']);
    expect(ids('React Native app and a React JS website')).toEqual(['mobile-development', 'web-development']);
    expect(ids('We must react quickly to the design brief')).toEqual([]);
    expect(ids('')).toEqual([]);
  });

  it('keeps an unknown expertise as its own normalized concept', () => {
    expect(conceptOf('  Quantum   Cryptography ')).toEqual({
      concept: 'quantum-cryptography',
      label: 'quantum cryptography',
      known: false,
    });
    expect(conceptOf('Quantum cryptographies')?.concept).toBe(conceptOf('quantum cryptography')?.concept);
    expect(conceptOf('!!!')).toBeUndefined();
  });

  it('splits a requested term naming several concepts', () => {
    expect(conceptsOfTerm('senior web developer and iOS').map((c) => c.concept)).toEqual(['web-development', 'mobile-development']);
    expect(conceptOf('senior web developer and iOS')?.concept).toBe('web-development');
  });
});
