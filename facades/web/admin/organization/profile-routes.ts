import type { Request, Response, Router } from 'express';
import type { OrganizationPublicProfileChanges } from '../../../generated/web-admin.ts';
import { freshForm, refusedStatus, sentValues, type FormState } from '../../../kit/forms.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { organizationJson } from '../../../representations/resources.ts';
import { ADMIN_PATH, orgPath } from '../admin-paths.ts';
import { adminPage, adminVisit, afterForm, type AdminOrganization, type AdminVisit } from '../layout.ts';
import { PROFILE_FIELDS, profileEditView } from './profile-edit-view.ts';

const PROFILE = `${ADMIN_PATH}/orgs/:org/profile`;
const TITLE = 'Edit the public profile';

/** The form's values for the profile as it is. */
function currentValues(org: AdminOrganization): Record<string, string> {
  const p = org.profile;
  return {
    name: p.name,
    description: p.description,
    website: p.website ?? '',
    logo_url: p.logo_url ?? '',
    city: p.place.city ?? '',
    region: p.place.region ?? '',
    country: p.place.country ?? '',
    sectors: p.sectors.join(', '),
    capabilities: p.capabilities.join(', '),
    networks: p.networks.join(', '),
  };
}

/** The operation's input from the form: every field, an empty one clearing it. */
function changesOf(values: Record<string, string | string[]>): OrganizationPublicProfileChanges {
  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' ? value : '';
  };
  const list = (name: string) =>
    text(name)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return {
    name: text('name'),
    description: text('description'),
    website: text('website'),
    logoUrl: text('logo_url'),
    city: text('city'),
    region: text('region'),
    country: text('country'),
    sectors: list('sectors'),
    capabilities: list('capabilities'),
    networks: list('networks'),
  };
}

const asForm = (values: FormState['values'], problems: { field: string; message: string }[]): FormState => ({
  values,
  errors: Object.fromEntries(problems.map((p) => [(PROFILE_FIELDS as readonly string[]).includes(p.field) ? p.field : '_form', p.message])),
});

/** The public profile's edit page: Preview answers the form again with the JSON, Save saves and goes back. */
export function mountProfilePages(router: Router, deps: PageDeps): void {
  function page(res: Response, visit: AdminVisit, form: FormState, preview?: ReturnType<typeof organizationJson>) {
    adminPage(res, visit, 'organization', TITLE, profileEditView(deps, visit, form, preview), { status: refusedStatus(form) });
  }

  router.get(PROFILE, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (visit) page(res, visit, freshForm(currentValues(visit.org)));
  });

  router.post(PROFILE, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res, 'profile');
    if (!visit) return;
    const values = sentValues(req, PROFILE_FIELDS);
    const variables = { id: visit.org.id, input: changesOf(values) };
    if (req.body?.action === 'save') {
      const outcome = await deps.operations.run('AdminUpdateProfile', variables, visit.session.context);
      if (!outcome.ok) throw outcome.error;
      const { problems } = outcome.data.updateOrganizationProfile;
      if (problems.length > 0) return page(res, visit, asForm(values, problems));
      return afterForm(res, orgPath(visit.org.id), 'profile');
    }
    const outcome = await deps.operations.run('AdminProfilePreview', variables, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    const { organization, problems } = outcome.data.organizationProfilePreview;
    page(res, visit, asForm(values, problems), organization ? organizationJson(organization) : undefined);
  });
}
