// Team composition: the domain core behind the public assistant connector's `compose_team`.
export { composeTeam, TEAM_LIMITS, type TeamMember, type TeamProposal, type TeamRequest } from './compose-team.ts';
export { EXPERTISE_CONCEPTS, type ExpertiseConcept } from './expertise-concepts.ts';
export { conceptOf, conceptsIn, conceptsOfTerm, expertiseConcept, VOCABULARY_SIZE, type ConceptRef } from './expertise-vocabulary.ts';
export type { WantedPlace } from './place-fit.ts';
