import type { RestOrganizationQuery } from '../../generated/rest.ts';
import { organization } from '../../representations/resources.ts';
import { resourceTag } from '../../../core/index.ts';
import type { Route } from '../route.ts';
import { present } from '../../operation-runner.ts';

const render = (data: RestOrganizationQuery) => organization.json(present(data.organization));

export const organizationRoute: Route = {
  path: '/organization',
  scope: 'organization:read',
  call: ({ grant }) => ({
    operation: 'RestOrganization',
    variables: { id: grant.organizationId },
    render,
    tags: () => [resourceTag('organization', grant.organizationId)],
  }),
};
