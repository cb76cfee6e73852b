// What `packline … --json` prints: the command's GraphQL result (facades/generated/cli.ts), snake-cased.
import type { SnakeCased } from '../../facades/cli/runtime.ts';
import type {
  CliApiKeyFragment,
  CliDestinationFragment,
  CliEventFragment,
  CliMemberFragment,
  CliNeedFragment,
  CliOrganizationFragment,
} from '../../facades/generated/cli.ts';

export type OrganizationJson = SnakeCased<CliOrganizationFragment>;
export type NeedJson = SnakeCased<CliNeedFragment>;
export type EventJson = SnakeCased<CliEventFragment>;
export type MemberJson = SnakeCased<CliMemberFragment>;
export type DestinationJson = SnakeCased<CliDestinationFragment>;

/** `keys create`: the new key, shown once, beside some of its fields. */
export type NewKeyJson = SnakeCased<Pick<CliApiKeyFragment, 'id' | 'name' | 'scopes' | 'expiresAt' | 'organizationId'> & { key: string }>;

/** `esign connect`: the connection and its inbound secret, shown once. */
export interface EsignConnectedJson {
  id: string;
  provider: string;
  organization_id: string;
  inbound_url: string;
  secret: string;
}

/** `seed` the first time: the counts and the demo key. */
export interface SeedJson {
  seeded: true;
  organizations: number;
  needs: number;
  events: number;
  demo_api_key: { organization_id: string; key: string; expires_at: string };
}
