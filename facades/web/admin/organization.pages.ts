import type { Request, Response, Router } from 'express';
import { html } from '../../kit/html.ts';
import { requestIdOf, signedIn, toLogin, type PageDeps } from '../../kit/page-support.ts';
import { seeOther } from '../../kit/html.ts';
import { organizationJson } from '../../representations/resources.ts';
import { ADMIN_PATH, orgPath } from './admin-paths.ts';
import { adminPage, adminVisit } from './layout.ts';

const number = (n: number) => n.toLocaleString('en');

/** The entry page (which organization) and an organization's overview: public profile, plan, allowances. */
export function mountOrganizationPages(router: Router, deps: PageDeps): void {
  router.get(ADMIN_PATH, async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const session = await signedIn(deps, req);
    if (!session) return toLogin(res, ADMIN_PATH, requestId);
    const outcome = await deps.operations.run('AdminAccount', {}, session.context);
    if (!outcome.ok) throw outcome.error;
    const { account, accountOrganizations } = outcome.data;
    const administered = accountOrganizations.filter((o) => o.role === 'admin');
    if (administered.length === 1) return seeOther(res, orgPath(administered[0]!.id), requestId);
    const body =
      administered.length === 0
        ? html`<p class="error">You are not an admin of any organization. Ask an admin of yours to make you one.</p>`
        : html`<p>Choose an organization:</p><ul>${administered.map((o) => html`<li><a href="${orgPath(o.id)}">${o.name}</a> (${o.plan} plan)</li>`)}</ul>`;
    adminPage(res, { account }, undefined, 'Your organizations', body, { status: administered.length === 0 ? 403 : 200 });
  });

  router.get(`${ADMIN_PATH}/orgs/:org`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const { org } = visit;
    const profile = organizationJson(org.profile);
    const payment = profile.partner_payment;
    const a = org.allowances;
    const body = html`
<h2>Public profile</h2>
<p class="note">What the public API answers at <code>GET /api/v1/organization</code> for your keys, and what the directory shows${org.listed ? '' : html` (this organization is <strong>unlisted</strong>: it does not appear in public searches)`}.</p>
<dl>
<dt>Name</dt><dd>${profile.name}</dd>
<dt>Description</dt><dd>${profile.description || '—'}</dd>
<dt>Website</dt><dd>${profile.website ?? '—'}</dd>
<dt>Place</dt><dd>${[profile.place?.city, profile.place?.region, profile.place?.country].filter(Boolean).join(', ') || '—'}</dd>
<dt>Sectors</dt><dd>${profile.sectors.join(', ') || '—'}</dd>
<dt>Capabilities</dt><dd>${profile.capabilities.join(', ') || '—'}</dd>
<dt>Networks</dt><dd>${profile.networks.join(', ') || '—'}</dd>
<dt>Partner payment</dt><dd>${payment.confirmed_rate_percent === null ? 'no payment due yet' : `${payment.confirmed_rate_percent} % confirmed`} · ${payment.partners_count} partner${payment.partners_count === 1 ? '' : 's'}</dd>
<dt>Track record</dt><dd>${profile.proofs.completed_packs} completed packs · ${profile.proofs.references} references · ${profile.proofs.certifications} certifications</dd>
<dt>Profile address</dt><dd><code>${profile.profile_url}</code> <span class="note">(the address the API gives integrators for your profile)</span></dd>
</dl>
<details><summary>As JSON</summary><pre>${JSON.stringify(profile, null, 2)}</pre></details>
${org.complete ? '' : html`<p class="note">The profile is marked incomplete: complete it so integrators and assistants describe you well.</p>`}
<h2>Plan: ${org.plan}</h2>
<p>On the ${org.plan} plan your systems can call the API ${number(a.monthlyQuota)} times a month with up to ${a.activeKeys} active key${a.activeKeys === 1 ? '' : 's'}, and Packline sends events to up to ${a.destinations} webhook destination${a.destinations === 1 ? '' : 's'}.</p>
<table><tbody>
<tr><th scope="row">Active API keys at once</th><td>up to ${a.activeKeys}</td></tr>
<tr><th scope="row">API calls per month</th><td>${number(a.monthlyQuota)} (counted from the 1st, UTC)</td></tr>
<tr><th scope="row">Webhook destinations</th><td>up to ${a.destinations}</td></tr>
<tr><th scope="row">Deliveries kept per destination</th><td>the newest ${a.retainedDeliveries}, to check what was sent</td></tr>
<tr><th scope="row">Sending a failed delivery again by hand</th><td>${a.manualRetry ? 'yes' : 'no (part of the Clan plan)'}</td></tr>
</tbody></table>
<p><a href="${orgPath(org.id, '/keys')}">Manage API keys</a> · <a href="${orgPath(org.id, '/webhooks')}">Manage webhooks</a> · <a href="${orgPath(org.id, '/usage')}">See usage</a></p>`;
    adminPage(res, visit, 'organization', org.profile.name, body);
  });
}
