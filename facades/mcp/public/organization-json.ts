// A public organization profile as the connector's tools return it: the JSON declared once in
// representations/resources.ts (as the REST API gives it), with the tool output schema the
// connector announces, which the compiler holds to the declaration.
import { z } from 'zod';
import { organization } from '../../representations/resources.ts';

const count = z.number().int().min(0);

export const organizationOutput = z.object({
  id: z.string().describe('Pass to get_organization, or as org:<id> to fetch'),
  name: z.string(),
  description: z.string(),
  website: z.string().nullable(),
  logo_url: z.string().nullable(),
  sectors: z.array(z.string()),
  capabilities: z.array(z.string()).describe('Expertise the organization offers'),
  networks: z.array(z.string()),
  place: z.object({
    city: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string().nullable().describe('ISO 3166-1 alpha-2'),
  }),
  partner_payment: z
    .object({
      confirmed_rate_percent: z
        .number()
        .int()
        .min(0)
        .max(100)
        .nullable()
        .describe('Share of partner payments confirmed; null before any was due'),
      partners_count: count,
    })
    .describe('A rate and a count, never an amount'),
  proofs: z.object({ completed_packs: count, references: count, certifications: count }).describe('Track record, as counts'),
  profile_url: z.string(),
  updated_at: z.string().describe('ISO 8601 UTC'),
});

export type OrganizationJson = z.infer<typeof organizationOutput>;

/** The declared JSON (representations/resources.ts): the output schema must describe exactly it. */
type DeclaredJson = ReturnType<typeof organization.json>;
const sameJson: [OrganizationJson, DeclaredJson] extends [DeclaredJson, OrganizationJson] ? true : never = true;
void sameJson;

export const organizationJson = (node: DeclaredJson): OrganizationJson => organization.json(node);

/** Plain text of a profile, for `fetch`. */
export function organizationText(o: OrganizationJson): string {
  const place = [o.place.city, o.place.region, o.place.country].filter((p) => p !== null).join(', ');
  const rate = o.partner_payment.confirmed_rate_percent;
  return [
    `${o.name}`,
    o.description,
    `Capabilities: ${o.capabilities.join(', ') || 'none listed'}`,
    `Sectors: ${o.sectors.join(', ') || 'none listed'}`,
    `Place: ${place || 'not given'}`,
    `Networks: ${o.networks.join(', ') || 'none'}`,
    `Track record: ${counted(o.proofs.completed_packs, 'completed pack')}, ${counted(o.proofs.references, 'reference')}, ${counted(o.proofs.certifications, 'certification')}`,
    `Partner payment: ${rate === null ? 'no payment due yet' : `${rate}% confirmed`}, ${counted(o.partner_payment.partners_count, 'partner')}`,
    ...(o.website ? [`Website: ${o.website}`] : []),
    `Profile: ${o.profile_url}`,
  ]
    .filter((line) => line !== '')
    .join('\n');
}

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
