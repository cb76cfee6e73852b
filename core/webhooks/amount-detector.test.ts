import { describe, expect, it } from 'vitest';
import { mentionsAmount } from './amount-detector.ts';

const POSITIVES: readonly string[] = [
  'Budget : 5 000 € pour l’ensemble de la mission',
  'We can offer €5k for the prototype',
  'The grant covers $12,500 in travel costs',
  'Enveloppe globale de 15 k€ pour la refonte du site',
  'Nous prévoyons 3000 EUR pour l’hébergement',
  'Budget : 2 M€ sur trois ans',
  'Funding of USD 40k is available for the pilot',
  'A £3.5m programme to retrofit social housing',
  'Une subvention de 40 000 euros a été obtenue',
  'Le projet est financé à hauteur de 1,2 million d’euros',
  'La fondation a levé 3 millions de dollars l’an dernier',
  "Compensation is CHF 1'200 per month",
  'Le devis s’élève à 12 500 $ canadiens',
  'Mission courte rémunérée 5 k$',
  'Participation aux frais : € 250 par personne',
  'Prime de 10K€ pour le lauréat',
  'A 2.5M USD seed round closed in May',
  'Volunteers receive 500 dollars for expenses',
  'Cotisation annuelle de mille euros pour les membres',
  'Nous avons un budget de 20k pour ce chantier',
  'Budget: 15k, flexible for the right partner',
  'Rémunération 45 000 selon expérience',
  'Tarif journalier 600 € HT',
  'TJM 550€ pour un profil senior',
  'Salary 60k plus benefits',
  'Le legs s’élevait à 50 000 francs en 1990',
  'Stipend of C$800 per week for fellows',
  'Ticket price is $25 at the door',
  'L’adhésion coûte 30 € par an',
  'Fee: ¥50,000 per session',
  'We need a freelance designer, TJM 450',
  'Salaire annuel brut : 38 000 à 42 000',
  'Rémunération de 45k brut annuel',
  'Paid internship, 1.5k per month',
  'Budget total : 80 000 pour la phase 1',
  'Grant amount: 25,000 for each selected team',
  'Le montant de la subvention est de 8 000',
  'Cost estimate around 3,500 GBP',
  'Une dotation de 2,5 Md€ pour le plan vélo',
  'We pay USD 300 per day on site',
  'Honoraires : 90 € de l’heure',
  'The prize is five thousand dollars',
  'Un million d’euros seront investis dans le quartier',
  'Coût estimé : 1 200 000 € sur la durée du contrat',
  'Around 50 000 £ will be allocated to the library',
  'Prévoir 20 CHF de frais de dossier',
  'Jusqu’à 700 000 XOF par projet retenu',
  'A €1.2bn investment plan for public transport',
  'Une bourse de 500 livres sterling pour le voyage',
  'Daily rate 400 for a junior analyst',
  'Revenue of 2M last year across all programmes',
  'Les billets sont à 12,50 € l’unité',
  'Budget 3 000 CAD for the translation',
  'We are offering CAD 5,000 per award',
  'Cinq cents dollars de remboursement par bénévole',
  'Le loyer est de 850 par mois, charges comprises',
  'Price: 49.99 USD per licence',
  'Total cost 2 500 000 JPY for the exchange',
  'Chaque lauréat reçoit 3 000 francs suisses',
  'An investment of 250 000 euros is planned',
  'Winners get a million dollars in seed money',
  'Le budget est d’environ 30 k pour 2026',
  'Salary from 45k to 55k a year',
  'Compensation: 40k/an plus tickets restaurant',
  'Le kWh est facturé 0,2516 € aux communes',
];

const NEGATIVES: readonly string[] = [
  'The workshop takes place on 12/05/2026 in Nantes',
  'Date limite : 2026-11-22 à minuit',
  'Réunion le 5 mars 2026 à la mairie',
  'Applications close on March 5, 2026',
  'Delivery expected in Q3 2026',
  'Call us at +33 6 12 34 56 78 for details',
  'Contact : 01 23 45 67 89 du lundi au vendredi',
  'Reach the office at (555) 123-4567',
  'Requires library v2.5.1 or later',
  'The service runs on Node 20',
  'Migrating to version 3.0 of the API',
  'Une hausse de 15 % des inscriptions',
  'We saw a 20% increase in volunteers',
  'We are looking for 3 developers in Lyon',
  'Une commune de 5 000 habitants cherche un animateur',
  'Join a team of 12 passionate people',
  'The app already has 10k users',
  'Moins de 2 k utilisateurs actifs par semaine',
  'Mission de 6 mois renouvelable',
  'The sprint lasts 3 weeks',
  'Permanence téléphonique 24h/24',
  'Locaux situés au 12 rue Oberkampf, 75011 Paris',
  'Un entrepôt de 500 m² à rénover',
  'Le site est à 3 km de la gare',
  'Servers with 16 GB of RAM are provided',
  'Filming in 4K video is required',
  'Maintenance on a Boeing 737 simulator',
  'Certified ISO 9001 since 2019',
  'Mesures sanitaires liées au COVID-19',
  'Our app ranks in the top 10 downloads',
  'Rated 4.5/5 by our volunteers',
  'Expertise in Web3 and decentralised identity',
  'B2B marketplace for local farmers',
  'Capteurs M2M pour les réseaux d’eau',
  'Le 1er prix du concours d’architecture',
  'EUReka project consortium meeting in Brussels',
  'Guided tours of the museum for 30 pupils',
  'Compliance with USDA organic rules',
  'The euro zone policy analysis needs an economist',
  'Set the $HOME variable before running the script',
  'The 2026 budget will be voted in June',
  'Budget 2026 : appel à projets citoyen',
  'Salaire selon profil et expérience',
  'Must be able to lift 50 pounds',
  'Don de 500 livres pour la bibliothèque municipale',
  'We need 3 CAD designers for the new depot',
  'Une métropole de 1,5 million d’habitants',
  '2 millions de visiteurs par an au musée',
  'Our platform processes millions of euros each year',
  'Le championnat Euro 2024 a attiré des foules',
  'SIRET 123 456 789 00012',
  'Room 101, building C, second floor',
  'Bac+5 en informatique exigé',
  'Le prix Nobel 2024 a été décerné',
  'Tarif réduit pour 12 personnes',
  'Article L. 1234-5 du Code du travail',
  'Deploy 5G antennas across 40 sites',
  'It is the million dollar question',
  'Installer 3 AED dans les gymnases',
  'Payment accepted in USD only',
  'Paiement en € uniquement',
  'Ouverture à 8h30, fermeture à 18h',
  'Cost center 4501 handles this request',
  'Temperature kept below 20°C in the archive',
  'Pays de la Loire, 44000 Nantes',
  'We plant 10k trees every spring',
  'Need a C$ developer? No, a C# developer for 2 days',
];

describe('mentionsAmount', () => {
  it.each(POSITIVES)('detects an amount in %j', (text) => {
    expect(mentionsAmount(text)).toBe(true);
  });

  it.each(NEGATIVES)('finds no amount in %j', (text) => {
    expect(mentionsAmount(text)).toBe(false);
  });

  it.each([
    ['NBSP', '\u00A0'],
    ['narrow NBSP', '\u202F'],
  ])('accepts %s as thousands separator and before the currency', (_name, space) => {
    expect(mentionsAmount(`Budget de 5${space}000${space}€ pour la mission`)).toBe(true);
    expect(mentionsAmount(`Une aide de 40${space}000 euros par an`)).toBe(true);
    expect(mentionsAmount(`Budget${space}: 2${space}M€ sur trois ans`)).toBe(true);
    expect(mentionsAmount(`Rémunération 45${space}000 selon profil`)).toBe(true);
    expect(mentionsAmount(`Une commune de 5${space}000 habitants`)).toBe(false);
  });

  it('returns on 200 KB of random words and digits', () => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const tokens = ['budget', 'de', 'the', 'k', 'M', 'euro', 'CAD', 'mille', '\u00A0', '\u202F', ',', '.', "'", ':', '%', 'users'];
    const parts: string[] = [];
    let length = 0;
    while (length < 200_000) {
      const part = random() < 0.5 ? String(Math.floor(random() * 100_000)) : (tokens[Math.floor(random() * tokens.length)] ?? 'x');
      parts.push(part);
      length += part.length + 1;
    }
    expect(typeof mentionsAmount(parts.join(' '))).toBe('boolean');
  });

  it.each([
    ['a long digit run', '9'.repeat(200_000)],
    ['repeated digit groups', '123 '.repeat(50_000)],
    ['a keyword followed by spaces', `budget${' '.repeat(200_000)}`],
    ['repeated keywords and fillers', 'budget de '.repeat(20_000)],
    ['repeated magnitudes', '1 k '.repeat(50_000)],
    ['unicode letters and separators', 'é\u00A0ß\u202F漢'.repeat(40_000)],
  ])('returns on adversarial input: %s', (_name, text) => {
    expect(typeof mentionsAmount(text)).toBe('boolean');
  });
});
