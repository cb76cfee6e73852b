import { organizationJson } from '../representations.ts';
import type { Route } from '../route.ts';

export const organizationRoute: Route = {
  path: '/organization',
  scope: 'organization:read',
  call: ({ grant }) => ({
    operation: 'RestOrganization',
    variables: { id: grant.organizationId },
    render: (data) => organizationJson(data.organization),
  }),
};
