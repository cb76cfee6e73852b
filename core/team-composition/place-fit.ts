// How well a candidate's place fits the place asked for a team.
import type { Place } from '../public-views.ts';
import { foldText } from './expertise-text.ts';

/** A place as asked: any part may be missing; the country as an ISO code or a name (en/fr). */
export interface WantedPlace {
  city?: string;
  region?: string;
  country?: string;
}

/** `elsewhere`: another known country. `unknown`: nothing to compare. `other`: same country unknown. */
export type PlaceMatch = 'city' | 'region' | 'country' | 'elsewhere' | 'other' | 'unknown';

// Names people type for the countries the platform serves; two-letter codes pass through.
const COUNTRY_NAMES: Record<string, string> = {
  france: 'FR',
  'united kingdom': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  'royaume uni': 'GB',
  angleterre: 'GB',
  germany: 'DE',
  allemagne: 'DE',
  deutschland: 'DE',
  spain: 'ES',
  espagne: 'ES',
  espana: 'ES',
  belgium: 'BE',
  belgique: 'BE',
  norway: 'NO',
  norvege: 'NO',
  canada: 'CA',
  'united states': 'US',
  usa: 'US',
  'etats unis': 'US',
  italy: 'IT',
  italie: 'IT',
  netherlands: 'NL',
  'pays bas': 'NL',
  switzerland: 'CH',
  suisse: 'CH',
  portugal: 'PT',
  luxembourg: 'LU',
  ireland: 'IE',
  irlande: 'IE',
  sweden: 'SE',
  suede: 'SE',
  denmark: 'DK',
  danemark: 'DK',
  austria: 'AT',
  autriche: 'AT',
  poland: 'PL',
  pologne: 'PL',
};

const key = (text: string | null | undefined) => {
  const folded = foldText(text ?? '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return folded === '' ? null : folded;
};

/** ISO 3166 alpha-2 code of a country code or name, or the folded name when unknown. */
export function countryCode(country: string | null | undefined): string | null {
  const k = key(country);
  if (k === null) return null;
  if (/^[a-z]{2}$/.test(k)) return k.toUpperCase();
  return COUNTRY_NAMES[k] ?? k;
}

/** The wanted place, its city's region and country filled in from a candidate in that city. */
export function completePlace(wanted: WantedPlace | undefined, candidates: readonly { id: string; place: Place }[]): WantedPlace {
  const place: WantedPlace = { ...wanted };
  const city = key(place.city);
  if (city === null || (place.region && place.country)) return place;
  const sameCity = [...candidates].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).find((c) => key(c.place.city) === city);
  if (sameCity) {
    place.region ??= sameCity.place.region ?? undefined;
    place.country ??= sameCity.place.country ?? undefined;
  }
  return place;
}

/** The closest level at which `candidate` is where the team is wanted. */
export function placeMatch(wanted: WantedPlace, candidate: Place): PlaceMatch {
  const [wCity, wRegion, wCountry] = [key(wanted.city), key(wanted.region), countryCode(wanted.country)];
  if (wCity === null && wRegion === null && wCountry === null) return 'unknown';
  const cCountry = countryCode(candidate.country);
  const sameCountry = wCountry === null || cCountry === null || wCountry === cCountry;
  if (wCity !== null && wCity === key(candidate.city) && sameCountry) return 'city';
  if (wRegion !== null && wRegion === key(candidate.region) && sameCountry) return 'region';
  if (wCountry !== null && cCountry !== null) return wCountry === cCountry ? 'country' : 'elsewhere';
  return 'other';
}
