import { organizationJson, type OrganizationNode } from '../representations.ts';
import type { Route } from '../route.ts';

const render = (data: { organization: OrganizationNode }) => organizationJson(data.organization);

export const organizationRoute: Route = {
  path: '/organization',
  scope: 'organization:read',
  call: ({ grant }) => ({ operation: 'RestOrganization', variables: { id: grant.organizationId }, render }),
};
