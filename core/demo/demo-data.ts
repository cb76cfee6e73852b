import type { Plan, Role } from '../entities/index.ts';

// The demo platform loaded on first start: organizations of every plan and flag, members,
// needs of every state, events past, ongoing, upcoming and cancelled.

export interface DemoOrganization {
  id: string;
  name: string;
  plan: Plan;
  listed?: boolean;
  demo?: boolean;
  complete?: boolean;
  description: string;
  website?: string;
  city: string;
  region?: string;
  country: string;
  sectors: string[];
  capabilities: string[];
  networks: string[];
  payments: [due: number, confirmed: number, partners: number];
  proofs: [completedPacks: number, references: number, certifications: number];
}

export const DEMO_ORGANIZATIONS: DemoOrganization[] = [
  {
    id: 'atelier-nord',
    name: 'Atelier Nord',
    plan: 'clan',
    description: 'Architecture and interior design studio for public buildings and workplaces.',
    website: 'https://atelier-nord.example',
    city: 'Lille',
    region: 'Hauts-de-France',
    country: 'FR',
    sectors: ['architecture', 'design'],
    capabilities: ['architecture', 'interior design', '3d modelling', 'project management'],
    networks: ['French Tech Lille'],
    payments: [24, 23, 9],
    proofs: [14, 11, 2],
  },
  {
    id: 'brightwave-labs',
    name: 'Brightwave Labs',
    plan: 'alpha',
    description: 'Product engineering for web and mobile applications.',
    website: 'https://brightwave.example',
    city: 'London',
    region: 'England',
    country: 'GB',
    sectors: ['software'],
    capabilities: ['web development', 'mobile development', 'ux design', 'accessibility'],
    networks: ['Tech Nation'],
    payments: [12, 12, 5],
    proofs: [9, 7, 1],
  },
  {
    id: 'cobalt-data',
    name: 'Cobalt Data',
    plan: 'base',
    description: 'Data engineering and applied machine learning.',
    website: 'https://cobalt-data.example',
    city: 'Lyon',
    region: 'Auvergne-Rhône-Alpes',
    country: 'FR',
    sectors: ['data', 'software'],
    capabilities: ['data engineering', 'machine learning', 'analytics', 'python'],
    networks: ['French Tech Lyon'],
    payments: [8, 7, 4],
    proofs: [6, 5, 1],
  },
  {
    id: 'delta-forge',
    name: 'Delta Forge',
    plan: 'clan',
    description: 'Mechanical engineering, prototyping and small-series machining.',
    website: 'https://delta-forge.example',
    city: 'Berlin',
    country: 'DE',
    sectors: ['manufacturing'],
    capabilities: ['mechanical engineering', 'prototyping', 'cnc machining', 'industrial design'],
    networks: ['Berlin Makers'],
    payments: [30, 27, 11],
    proofs: [21, 15, 3],
  },
  {
    id: 'ember-comms',
    name: 'Ember Communication',
    plan: 'alpha',
    description: 'Brand strategy, copywriting and social media for mission-driven organizations.',
    city: 'Paris',
    region: 'Île-de-France',
    country: 'FR',
    sectors: ['marketing'],
    capabilities: ['copywriting', 'brand strategy', 'social media', 'translation'],
    networks: ['Paris&Co'],
    payments: [10, 9, 6],
    proofs: [8, 6, 0],
  },
  {
    id: 'fjord-legal',
    name: 'Fjord Legal',
    plan: 'base',
    description: 'Contract law and data protection counsel.',
    city: 'Oslo',
    country: 'NO',
    sectors: ['legal'],
    capabilities: ['contract law', 'gdpr compliance', 'intellectual property'],
    networks: [],
    payments: [4, 4, 2],
    proofs: [3, 4, 1],
  },
  {
    id: 'granite-coop',
    name: 'Granite Coop',
    plan: 'base',
    complete: false,
    description: '',
    city: 'Nantes',
    country: 'FR',
    sectors: ['construction'],
    capabilities: ['masonry'],
    networks: [],
    payments: [0, 0, 0],
    proofs: [0, 0, 0],
  },
  {
    id: 'harbor-studio',
    name: 'Harbor Studio',
    plan: 'alpha',
    listed: false,
    description: 'Video production and motion design.',
    city: 'Marseille',
    country: 'FR',
    sectors: ['media'],
    capabilities: ['video production', 'motion design'],
    networks: [],
    payments: [5, 5, 3],
    proofs: [4, 2, 0],
  },
  {
    id: 'iris-demo',
    name: 'Iris (demonstration)',
    plan: 'clan',
    demo: true,
    description: 'A demonstration account showing what a complete profile looks like.',
    city: 'Bordeaux',
    country: 'FR',
    sectors: ['software', 'design'],
    capabilities: ['web development', 'ux design', 'architecture'],
    networks: ['Demo Network'],
    payments: [50, 50, 20],
    proofs: [40, 30, 5],
  },
  {
    id: 'juniper-green',
    name: 'Juniper Green Energy',
    plan: 'clan',
    description: 'Solar installation, energy audits and building retrofits.',
    website: 'https://juniper-green.example',
    city: 'Montréal',
    region: 'Québec',
    country: 'CA',
    sectors: ['energy', 'construction'],
    capabilities: ['solar installation', 'energy audit', 'building retrofit'],
    networks: ['Cleantech Québec'],
    payments: [18, 16, 7],
    proofs: [12, 9, 4],
  },
  {
    id: 'kite-translations',
    name: 'Kite Translations',
    plan: 'base',
    description: 'Translation and localisation across European languages.',
    city: 'Brussels',
    country: 'BE',
    sectors: ['translation'],
    capabilities: ['translation', 'localisation', 'copywriting'],
    networks: ['EU Language Network'],
    payments: [6, 5, 3],
    proofs: [5, 8, 0],
  },
  {
    id: 'lumen-security',
    name: 'Lumen Security',
    plan: 'alpha',
    description: 'Penetration testing, security audits and secure DevOps.',
    city: 'Madrid',
    country: 'ES',
    sectors: ['security', 'software'],
    capabilities: ['penetration testing', 'security audit', 'devops'],
    networks: ['Madrid Tech'],
    payments: [9, 9, 4],
    proofs: [7, 6, 2],
  },
];

export interface DemoMember {
  email: string;
  name: string;
  memberships: [organizationId: string, role: Role][];
}

export const DEMO_MEMBERS: DemoMember[] = [
  { email: 'ines@atelier-nord.example', name: 'Inès Morel', memberships: [['atelier-nord', 'admin']] },
  { email: 'tom@atelier-nord.example', name: 'Tom Lefèvre', memberships: [['atelier-nord', 'member']] },
  { email: 'priya@brightwave.example', name: 'Priya Shah', memberships: [['brightwave-labs', 'admin']] },
  { email: 'lucas@cobalt-data.example', name: 'Lucas Bernard', memberships: [['cobalt-data', 'admin']] },
  {
    email: 'anna@delta-forge.example',
    name: 'Anna Vogel',
    memberships: [
      ['delta-forge', 'admin'],
      ['juniper-green', 'member'],
    ],
  },
  { email: 'marc@juniper-green.example', name: 'Marc Tremblay', memberships: [['juniper-green', 'admin']] },
];

export interface DemoNeed {
  organizationId: string;
  title: string;
  description: string;
  expertise: string[];
  remote?: boolean;
  city?: string;
  country?: string;
  state?: 'draft' | 'public' | 'private' | 'withdrawn';
  discreet?: boolean;
  demo?: boolean;
  deadlineInDays?: number;
}

const publicNeeds: DemoNeed[] = [
  {
    organizationId: 'atelier-nord',
    title: 'Structural engineer for a school extension',
    description: 'We design a two-storey timber extension for a primary school and need a structural engineer for the feasibility study.',
    expertise: ['structural engineering', 'timber construction'],
    city: 'Lille',
    country: 'FR',
    deadlineInDays: 30,
  },
  {
    organizationId: 'atelier-nord',
    title: 'Lighting designer for a library renovation',
    description: 'Daylight and artificial lighting concept for a public library.',
    expertise: ['lighting design'],
    remote: true,
  },
  {
    organizationId: 'atelier-nord',
    title: 'Acoustic consultant for open-plan offices',
    description: 'Acoustic study and recommendations for a 1,200 m² workplace.',
    expertise: ['acoustics'],
    city: 'Lille',
    country: 'FR',
  },
  {
    organizationId: 'brightwave-labs',
    title: 'Accessibility audit of a banking app',
    description: 'WCAG 2.2 audit of an iOS and Android application, with a remediation plan.',
    expertise: ['accessibility', 'mobile development'],
    remote: true,
  },
  {
    organizationId: 'brightwave-labs',
    title: 'Backend developer for a booking platform',
    description: 'Node.js and PostgreSQL developer to join a team of four for three months.',
    expertise: ['web development', 'postgresql'],
    remote: true,
    deadlineInDays: 14,
  },
  {
    organizationId: 'brightwave-labs',
    title: 'Brand refresh for a developer tool',
    description: 'Naming, visual identity and launch copy for a developer product.',
    expertise: ['brand strategy', 'copywriting'],
    remote: true,
  },
  {
    organizationId: 'cobalt-data',
    title: 'Data engineer for a logistics dashboard',
    description: 'Build ingestion pipelines from three ERPs into a warehouse and a dashboard.',
    expertise: ['data engineering', 'analytics'],
    city: 'Lyon',
    country: 'FR',
  },
  {
    organizationId: 'cobalt-data',
    title: 'Demand forecasting model for a retailer',
    description: 'Weekly demand forecasting for 4,000 products across 60 stores.',
    expertise: ['machine learning', 'python'],
    remote: true,
  },
  {
    organizationId: 'delta-forge',
    title: 'Industrial designer for a medical device housing',
    description: 'Ergonomic housing for a handheld diagnostic device, ready for injection moulding.',
    expertise: ['industrial design', 'prototyping'],
    city: 'Berlin',
    country: 'DE',
  },
  {
    organizationId: 'delta-forge',
    title: 'Embedded firmware for a test bench',
    description: 'Firmware for a motor test bench with data logging over USB.',
    expertise: ['embedded software', 'electronics'],
    remote: true,
  },
  {
    organizationId: 'delta-forge',
    title: 'CNC machining partner for small series',
    description: 'Aluminium parts, 200 units per quarter, tolerance ±0.02 mm.',
    expertise: ['cnc machining'],
    city: 'Berlin',
    country: 'DE',
  },
  {
    organizationId: 'ember-comms',
    title: 'Translator for a climate campaign',
    description: 'French to German and Spanish translation of campaign material, about 8,000 words.',
    expertise: ['translation'],
    remote: true,
    deadlineInDays: 10,
  },
  {
    organizationId: 'ember-comms',
    title: 'Motion designer for explainer videos',
    description: 'Three 60-second explainer videos for a non-profit.',
    expertise: ['motion design', 'video production'],
    remote: true,
  },
  {
    organizationId: 'juniper-green',
    title: 'Energy audit of a community centre',
    description: 'Full energy audit and retrofit plan for a 1970s community centre.',
    expertise: ['energy audit', 'building retrofit'],
    city: 'Montréal',
    country: 'CA',
  },
  {
    organizationId: 'juniper-green',
    title: 'Solar installers for a school roof',
    description: 'Install a 90 kWp photovoltaic system on a school roof during the summer break.',
    expertise: ['solar installation', 'electrical engineering'],
    city: 'Laval',
    country: 'CA',
    deadlineInDays: 45,
  },
  {
    organizationId: 'juniper-green',
    title: 'GDPR review of a smart-meter data platform',
    description: 'Review data flows and contracts of a smart-meter analytics platform.',
    expertise: ['gdpr compliance', 'contract law'],
    remote: true,
  },
  {
    organizationId: 'kite-translations',
    title: 'Terminology database for a legal client',
    description: 'Build and maintain a multilingual terminology database.',
    expertise: ['localisation', 'data engineering'],
    remote: true,
  },
  {
    organizationId: 'lumen-security',
    title: 'Penetration test of a public API',
    description: 'Black-box and grey-box testing of a REST API and its OAuth flows.',
    expertise: ['penetration testing', 'security audit'],
    remote: true,
  },
  {
    organizationId: 'lumen-security',
    title: 'DevOps engineer for a Kubernetes migration',
    description: 'Move twelve services from virtual machines to Kubernetes with GitOps.',
    expertise: ['devops', 'kubernetes'],
    remote: true,
  },
  {
    organizationId: 'fjord-legal',
    title: 'Designer for an annual report',
    description: 'Layout and infographics for a 40-page annual report.',
    expertise: ['graphic design'],
    remote: true,
  },
  {
    organizationId: 'granite-coop',
    title: 'Architect for a cooperative housing project',
    description: 'Eight dwellings in timber frame, participatory design process.',
    expertise: ['architecture', 'timber construction'],
    city: 'Nantes',
    country: 'FR',
  },
  {
    organizationId: 'harbor-studio',
    title: 'Sound designer for a documentary',
    description: 'Sound design and mix for a 52-minute documentary.',
    expertise: ['sound design'],
    remote: true,
  },
  {
    organizationId: 'atelier-nord',
    title: '3D visualisation of a museum wing',
    description: 'Photorealistic renders and a walkthrough of a new museum wing.',
    expertise: ['3d modelling', 'visualisation'],
    remote: true,
  },
  {
    organizationId: 'brightwave-labs',
    title: 'UX research for a health app',
    description: 'Interviews and usability tests with twelve patients.',
    expertise: ['ux design', 'user research'],
    remote: true,
  },
  {
    organizationId: 'cobalt-data',
    title: 'Analytics engineer for a marketing team',
    description: 'dbt models and dashboards for campaign reporting.',
    expertise: ['analytics', 'data engineering'],
    remote: true,
  },
  {
    organizationId: 'delta-forge',
    title: 'Mechanical engineer for an agricultural robot',
    description: 'Design the gripper of a fruit-picking robot.',
    expertise: ['mechanical engineering', 'robotics'],
    city: 'Berlin',
    country: 'DE',
  },
  {
    organizationId: 'juniper-green',
    title: 'Copywriter for an energy-savings guide',
    description: 'A 20-page guide for households, plain language, English and French.',
    expertise: ['copywriting', 'translation'],
    remote: true,
  },
  {
    organizationId: 'lumen-security',
    title: 'Security awareness training',
    description: 'Half-day training for 40 staff of a municipality.',
    expertise: ['security audit', 'training'],
    city: 'Madrid',
    country: 'ES',
  },
  {
    organizationId: 'kite-translations',
    title: 'Voice-over artists in four languages',
    description: 'Voice-over for e-learning modules in Dutch, French, German and Italian.',
    expertise: ['voice-over'],
    remote: true,
  },
  {
    organizationId: 'ember-comms',
    title: 'Social media manager for a festival',
    description: 'Three months of social media for a music festival.',
    expertise: ['social media'],
    city: 'Paris',
    country: 'FR',
  },
];

export const DEMO_NEEDS: DemoNeed[] = [
  ...publicNeeds,
  {
    organizationId: 'atelier-nord',
    title: 'Landscape architect for a schoolyard',
    description: 'Discreet need: readable in the API, never pushed.',
    expertise: ['landscape architecture'],
    discreet: true,
    city: 'Lille',
    country: 'FR',
  },
  {
    organizationId: 'cobalt-data',
    title: 'Data protection officer, part time',
    description: 'Budget : 15 000 € for the first year.',
    expertise: ['gdpr compliance'],
    remote: true,
  },
  {
    organizationId: 'brightwave-labs',
    title: 'Draft: design system audit',
    description: 'Not published yet.',
    expertise: ['ux design'],
    state: 'draft',
  },
  {
    organizationId: 'delta-forge',
    title: 'Private: supplier for titanium parts',
    description: 'Shared privately with invited partners only.',
    expertise: ['cnc machining'],
    state: 'private',
  },
  {
    organizationId: 'juniper-green',
    title: 'Withdrawn: heat pump installers',
    description: 'Filled by another team.',
    expertise: ['heat pumps'],
    state: 'withdrawn',
  },
  {
    organizationId: 'atelier-nord',
    title: 'Demonstration need: sample brief',
    description: 'Shows how a brief reads.',
    expertise: ['architecture'],
    demo: true,
  },
  {
    organizationId: 'iris-demo',
    title: 'Demonstration organization need',
    description: 'Content of a demonstration account.',
    expertise: ['web development'],
    remote: true,
  },
];

export interface DemoEvent {
  organizationId: string;
  title: string;
  description: string;
  /** Days from now (negative: past) and duration in hours. */
  startsInDays: number;
  hours: number;
  timezone: string;
  online?: boolean;
  city?: string;
  country?: string;
  cancelled?: boolean;
}

export const DEMO_EVENTS: DemoEvent[] = [
  {
    organizationId: 'atelier-nord',
    title: 'Open studio: timber in public buildings',
    description: 'Talks and a tour of current projects.',
    startsInDays: -20,
    hours: 3,
    timezone: 'Europe/Paris',
    city: 'Lille',
    country: 'FR',
  },
  {
    organizationId: 'brightwave-labs',
    title: 'Accessibility clinic (past)',
    description: 'Bring your app; we test it live.',
    startsInDays: -3,
    hours: 2,
    timezone: 'Europe/London',
    online: true,
  },
  {
    organizationId: 'delta-forge',
    title: 'Makers week',
    description: 'A week of open workshops on prototyping.',
    startsInDays: -1,
    hours: 24 * 5,
    timezone: 'Europe/Berlin',
    city: 'Berlin',
    country: 'DE',
  },
  {
    organizationId: 'cobalt-data',
    title: 'Forecasting with small data',
    description: 'A practical session on forecasting with little history.',
    startsInDays: 3,
    hours: 2,
    timezone: 'Europe/Paris',
    online: true,
  },
  {
    organizationId: 'juniper-green',
    title: 'Retrofit day',
    description: 'Visit of three retrofitted buildings.',
    startsInDays: 6,
    hours: 6,
    timezone: 'America/Toronto',
    city: 'Montréal',
    country: 'CA',
  },
  {
    organizationId: 'ember-comms',
    title: 'Writing for impact',
    description: 'Copywriting workshop for non-profits.',
    startsInDays: 9,
    hours: 3,
    timezone: 'Europe/Paris',
    city: 'Paris',
    country: 'FR',
  },
  {
    organizationId: 'lumen-security',
    title: 'API security meetup',
    description: 'OAuth pitfalls and how to test for them.',
    startsInDays: 12,
    hours: 2,
    timezone: 'Europe/Madrid',
    online: true,
  },
  {
    organizationId: 'atelier-nord',
    title: 'Partner breakfast',
    description: 'Meet the teams we work with.',
    startsInDays: 15,
    hours: 2,
    timezone: 'Europe/Paris',
    city: 'Lille',
    country: 'FR',
  },
  {
    organizationId: 'kite-translations',
    title: 'Localisation roundtable',
    description: 'Machine translation in practice.',
    startsInDays: 21,
    hours: 2,
    timezone: 'Europe/Brussels',
    online: true,
  },
  {
    organizationId: 'delta-forge',
    title: 'Robotics demo night',
    description: 'Demos of agricultural robots.',
    startsInDays: 28,
    hours: 3,
    timezone: 'Europe/Berlin',
    city: 'Berlin',
    country: 'DE',
  },
  {
    organizationId: 'brightwave-labs',
    title: 'Product teams summit',
    description: 'Cancelled summit.',
    startsInDays: 35,
    hours: 8,
    timezone: 'Europe/London',
    city: 'London',
    country: 'GB',
    cancelled: true,
  },
  {
    organizationId: 'iris-demo',
    title: 'Demonstration event',
    description: 'Belongs to a demonstration account.',
    startsInDays: 5,
    hours: 2,
    timezone: 'Europe/Paris',
    online: true,
  },
];
